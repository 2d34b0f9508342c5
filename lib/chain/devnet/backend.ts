// The `devnet` chain backend (docs/architecture.md#chain-backends): DevnetChain behind the ChainBackend interface,
// mining on a timer and on request, persisted in DATA_DIR/devnet so that a restart (e.g. of
// `npm run demo`) continues the same chain: the demo wallet key, every block (one hex line
// each, append-only) and the mempool. Never runs on mainnet.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { fromHex, hash160, isHex, toHex } from '../../doge/bytes';
import { encodeAddress, pubkeyToAddress } from '../../doge/address';
import type { Network } from '../../doge/network';
import { p2pkhScript } from '../../doge/script';
import { encodeWif } from '../../doge/wif';
import { log } from '../../log';
import type { BlockTxSummary, BroadcastResult, ChainBackend, InputLookup, Outpoint } from '../backend';
import { DevnetChain, txSummary, type DevnetBlock } from './chain';
import { sigVerdict } from './script';
import { SigVerifier } from './sig-verifier';

export interface DevnetOptions {
  network: Network;
  /** Directory for the chain files (DATA_DIR/devnet). */
  dir: string;
  /** Mine a block every this many seconds; 0 = only on request. */
  blockSeconds: number;
}

export interface DevnetWalletInfo {
  address: string;
  /**
   * The address the demo wallet gives as its `refund` address with /relay/pay: not its own. A
   * refund is never paid by a tx that spends its address's coins (docs/security.md), and in the
   * demo the same wallet plays the customer and the merchant who pays the refund back.
   */
  refundAddress: string;
  wif: string;
  balance: bigint;
  utxos: { txid: string; vout: number; amount: bigint; script: string; address: string; confirmations: number }[];
}

/** The devnet-only controls used by the demo (and its tests). */
export interface DevnetControls {
  mine(blocks?: number): Promise<string[]>;
  demoWallet(): DevnetWalletInfo;
}

export type DevnetBackend = ChainBackend & DevnetControls;

/** The devnet controls of a backend, or null for any other backend (duck-typed across bundles). */
export function asDevnet(chain: ChainBackend): DevnetBackend | null {
  return chain.name === 'devnet' && typeof (chain as Partial<DevnetControls>).mine === 'function' ? (chain as DevnetBackend) : null;
}

/** A script nobody can spend: hash160 of "counter devnet miner". */
const MINER_SCRIPT = p2pkhScript(hash160(new TextEncoder().encode('counter devnet miner')));
/** The demo customer's refund address: hash160 of "counter devnet refunds", whose key nobody holds. */
const REFUND_HASH = hash160(new TextEncoder().encode('counter devnet refunds'));

export function createDevnetBackend(opts: DevnetOptions): DevnetBackend {
  if (opts.network.name === 'mainnet') throw new Error('the devnet backend never runs with DOGE_NETWORK=mainnet');
  const dir = resolve(/*turbopackIgnore: true*/ opts.dir);
  const files = { key: join(/*turbopackIgnore: true*/ dir, 'wallet-key'), blocks: join(/*turbopackIgnore: true*/ dir, 'blocks.hex'), mempool: join(/*turbopackIgnore: true*/ dir, 'mempool.hex') };
  let chain: DevnetChain | null = null;
  let walletKey: Uint8Array;
  let walletScript: Uint8Array;
  let timer: ReturnType<typeof setInterval> | undefined;
  const sigs = new SigVerifier();
  /** The last broadcast's acceptance: each waits for the one before (call order). */
  let accepted: Promise<unknown> = Promise.resolve();
  /** The mempool txids mempoolNewTxs has already returned (docs/api.md#payments-from-any-wallet: its own mempool). */
  let mempoolSeen = new Set<string>();

  /** The tx's script verdicts, with its signatures checked off the event loop (sig-verifier.ts). */
  async function scriptVerdicts(c: DevnetChain, raw: Uint8Array): Promise<Map<string, string | null> | undefined> {
    const pre = c.scriptChecks(raw);
    if (!pre) return undefined;
    const ok = await sigs.verify(pre.checks.map((x) => x.check));
    pre.checks.forEach((x, i) => pre.verdicts.set(x.key, sigVerdict(x.index, ok[i])));
    return pre.verdicts;
  }

  function saveMempool(c: DevnetChain) {
    const tmp = files.mempool + '.tmp';
    writeFileSync(tmp, [...c.mempool.values()].map((t) => toHex(t.raw) + '\n').join(''));
    renameSync(tmp, files.mempool);
  }

  function persistBlock(b: DevnetBlock, c: DevnetChain) {
    appendFileSync(files.blocks, toHex(b.raw) + '\n');
    saveMempool(c);
  }

  /** Load or create the chain (synchronously, on first use). */
  function load(): DevnetChain {
    if (chain) return chain;
    mkdirSync(dir, { recursive: true });
    if (existsSync(files.key)) walletKey = fromHex(readFileSync(files.key, 'utf8').trim());
    else {
      walletKey = secp256k1.utils.randomSecretKey();
      writeFileSync(files.key, toHex(walletKey) + '\n', { mode: 0o600 });
    }
    walletScript = p2pkhScript(hash160(secp256k1.getPublicKey(walletKey, true)));
    const c = new DevnetChain({ minerScript: MINER_SCRIPT, fundScript: walletScript });
    if (existsSync(files.blocks)) {
      for (const line of readFileSync(files.blocks, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          c.connect(fromHex(line.trim()));
        } catch (e) {
          log.warn('devnet: ignoring a block that does not connect (truncated file?)', { error: e as Error });
          break;
        }
      }
    }
    if (existsSync(files.mempool)) {
      for (const line of readFileSync(files.mempool, 'utf8').split('\n')) if (isHex(line.trim()) && line.trim()) c.accept(fromHex(line.trim()));
    }
    chain = c;
    // Rewrite the block file from what connected (drops a torn last line).
    writeFileSync(files.blocks, c.blocks.map((b) => toHex(b.raw) + '\n').join(''));
    // A new chain: genesis, then a block that funds the demo wallet.
    while (c.blocks.length < 2) persistBlock(c.mine(), c);
    if (c.balanceOf(walletScript) === 0n) persistBlock(c.mine(), c);
    return c;
  }

  function mineOne(): string {
    const c = load();
    const b = c.mine();
    persistBlock(b, c);
    return b.hash;
  }

  const backend: DevnetBackend = {
    name: 'devnet',
    canLookupInputs: true,
    async start() {
      load();
      if (opts.blockSeconds > 0 && !timer) {
        timer = setInterval(() => {
          try {
            mineOne();
          } catch (e) {
            log.error('devnet: mining failed', { error: e as Error });
          }
        }, opts.blockSeconds * 1000);
        timer.unref?.();
      }
      log.info('devnet chain ready', { height: load().tip!.height, blockSeconds: opts.blockSeconds, wallet: backend.demoWallet().address });
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await sigs.close();
    },
    async tip() {
      const t = load().tip!;
      return { height: t.height, hash: t.hash };
    },
    async blockHashAt(height: number) {
      if (!Number.isSafeInteger(height) || height < 0) throw new RangeError(`invalid block height ${height}`);
      return load().blocks[height]?.hash ?? null;
    },
    async block(hash: string) {
      const b = load().blockByHash(hash);
      if (!b) throw new Error(`devnet has no block ${hash}`);
      return load().summary(b);
    },
    async lookupInputs(outpoints: Outpoint[]): Promise<InputLookup[]> {
      const c = load();
      return outpoints.map((o) => c.lookup(o));
    },
    async broadcast(txHex: string): Promise<BroadcastResult> {
      if (typeof txHex !== 'string' || txHex.length === 0 || !isHex(txHex)) return { ok: false, code: 'rejected', reason: 'transaction is not hex' };
      const c = load();
      const raw = fromHex(txHex);
      // The signatures are checked first, off the event loop and concurrently with other
      // broadcasts; the txs are then accepted in the order they were broadcast (a child right
      // after its parent finds the parent in the mempool, and of two conflicting txs the first
      // wins, as before), each against the chain as it then stands (inputs, outputs, fee).
      const verdicts = scriptVerdicts(c, raw);
      const turn = accepted.then(async () => {
        const v = await verdicts;
        const before = c.mempool.size;
        const r = c.accept(raw, v);
        // Append only the new tx (rewriting the whole mempool per broadcast was O(mempool) each;
        // a block rewrites the file, and a replayed duplicate line is accepted as already known).
        if (r.ok && c.mempool.size > before) appendFileSync(files.mempool, toHex(raw) + '\n');
        return r;
      });
      accepted = turn.catch(() => undefined);
      return turn;
    },
    async inMempool(txid: string) {
      return load().mempool.has(txid.toLowerCase());
    },
    async mempoolNewTxs(): Promise<BlockTxSummary[]> {
      const pool = load().mempool;
      const fresh = [...pool.values()].filter((t) => !mempoolSeen.has(t.txid));
      mempoolSeen = new Set(pool.keys());
      return fresh.map(txSummary);
    },
    async peers() {
      return 1;
    },
    async mine(blocks = 1) {
      const n = Math.max(1, Math.min(100, Math.floor(blocks)));
      const hashes: string[] = [];
      for (let i = 0; i < n; i++) hashes.push(mineOne());
      return hashes;
    },
    demoWallet(): DevnetWalletInfo {
      const c = load();
      const tip = c.tip!.height;
      const address = pubkeyToAddress(secp256k1.getPublicKey(walletKey, true), opts.network);
      const utxos = c.coinsOf(walletScript).map((u) => ({
        txid: u.txid, vout: u.vout, amount: u.value, script: toHex(walletScript), address, confirmations: u.height < 0 ? 0 : tip - u.height + 1,
      }));
      const refundAddress = encodeAddress('p2pkh', REFUND_HASH, opts.network);
      return { address, refundAddress, wif: encodeWif(walletKey, true, opts.network), balance: utxos.reduce((s, u) => s + u.amount, 0n), utxos };
    },
  };
  return backend;
}
