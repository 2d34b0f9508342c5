// The devnet chain's files in DATA_DIR/devnet, so that a restart (e.g. of `npm run demo`)
// continues the same chain: the demo wallet key, every block (one hex line each, append-only)
// and the mempool.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { fromHex, hash160, isHex, toHex, p2pkhScript } from '../../doge';
import { log } from '../../log';
import { DevnetChain, type DevnetBlock } from './chain';

/** A script nobody can spend: hash160 of "counter devnet miner". */
const MINER_SCRIPT = p2pkhScript(hash160(new TextEncoder().encode('counter devnet miner')));

/** The loaded chain and the demo wallet's key. */
export interface DevnetState {
  chain: DevnetChain;
  walletKey: Uint8Array;
  walletScript: Uint8Array;
}

export class DevnetStore {
  private readonly dir: string;
  private readonly files: { key: string; blocks: string; mempool: string };
  private state: DevnetState | null = null;

  constructor(dir: string) {
    this.dir = resolve(/*turbopackIgnore: true*/ dir);
    this.files = {
      key: join(/*turbopackIgnore: true*/ this.dir, 'wallet-key'),
      blocks: join(/*turbopackIgnore: true*/ this.dir, 'blocks.hex'),
      mempool: join(/*turbopackIgnore: true*/ this.dir, 'mempool.hex'),
    };
  }

  /** Load or create the chain (synchronously, on first use). */
  load(): DevnetState {
    if (this.state) return this.state;
    mkdirSync(this.dir, { recursive: true });
    const walletKey = this.loadKey();
    const walletScript = p2pkhScript(hash160(secp256k1.getPublicKey(walletKey, true)));
    const c = new DevnetChain({ minerScript: MINER_SCRIPT, fundScript: walletScript });
    this.replayBlocks(c);
    if (existsSync(this.files.mempool)) {
      for (const line of readFileSync(this.files.mempool, 'utf8').split('\n'))
        if (isHex(line.trim()) && line.trim()) c.accept(fromHex(line.trim()));
    }
    this.state = { chain: c, walletKey, walletScript };
    // Rewrite the block file from what connected (drops a torn last line).
    writeFileSync(this.files.blocks, c.blocks.map((b) => toHex(b.raw) + '\n').join(''));
    // A new chain: genesis, then a block that funds the demo wallet.
    while (c.blocks.length < 2) this.persistBlock(c.mine(), c);
    if (c.balanceOf(walletScript) === 0n) this.persistBlock(c.mine(), c);
    return this.state;
  }

  /** Mines one block and writes it. */
  mineOne(): string {
    const c = this.load().chain;
    const b = c.mine();
    this.persistBlock(b, c);
    return b.hash;
  }

  /** Appends a tx the mempool just accepted (a block rewrites the file; a replayed duplicate is "already known"). */
  appendMempoolTx(raw: Uint8Array): void {
    appendFileSync(this.files.mempool, toHex(raw) + '\n');
  }

  private loadKey(): Uint8Array {
    if (existsSync(this.files.key)) return fromHex(readFileSync(this.files.key, 'utf8').trim());
    const key = secp256k1.utils.randomSecretKey();
    writeFileSync(this.files.key, toHex(key) + '\n', { mode: 0o600 });
    return key;
  }

  private replayBlocks(c: DevnetChain): void {
    if (!existsSync(this.files.blocks)) return;
    for (const line of readFileSync(this.files.blocks, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        c.connect(fromHex(line.trim()));
      } catch (e) {
        log.warn('devnet: ignoring a block that does not connect (truncated file?)', { error: e as Error });
        break;
      }
    }
  }

  private persistBlock(b: DevnetBlock, c: DevnetChain): void {
    appendFileSync(this.files.blocks, toHex(b.raw) + '\n');
    const tmp = this.files.mempool + '.tmp';
    writeFileSync(tmp, [...c.mempool.values()].map((t) => toHex(t.raw) + '\n').join(''));
    renameSync(tmp, this.files.mempool);
  }
}
