// A throwaway `dogecoind -regtest` node (Dogecoin Core 1.14.9, the reference peer, docs/architecture.md#chain-backends)
// on loopback for backend tests, modelled on litecoind.ts.
//
//   if (!haveDogecoind) …                          // describe.skipIf(!haveDogecoind): see skipReason
//   const node = await startDogecoind();           // wallet with mature coins (maturity is 60)
//   const hex = await node.payTo([{ address, amountKoinu: 150_000_000n }]); // signed, NOT sent
//   await node.mine(1);                            // AuxPoW blocks from height 20
//   await node.dispose();                          // RPC stop, wait for exit, delete the datadir
//
// The binary comes from $DOGECOIND, by default ../shared/dogecoin/bin/dogecoind next to the
// repository (the only reference to ../shared: a clone elsewhere skips these tests, saying why).
// Its flags are those of that directory's README: -blockprioritysize=0 makes mined blocks obey
// fees and prioritisetransaction, -peerbloomfilters=1 serves the spv node's filters.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { koinuToRpc } from '../../lib/chain/rpc/client';
import { encodeAddress } from '../../lib/doge/address';
import { REGTEST } from '../../lib/doge/network';
import { logTail, startNode, waitExit, NodeProcess, type NodeKind, type PayOutput, type RegtestNode } from './regtest-node';

export type { PayOutput };

const ROOT = resolve(__dirname, '../..');
export const DOGECOIND = process.env.DOGECOIND ? resolve(process.env.DOGECOIND) : resolve(ROOT, '../shared/dogecoin/bin/dogecoind');
export const haveDogecoind = existsSync(DOGECOIND);
/** Why the dogecoind tests skip (printed by the test files that skip). */
export const skipReason = `dogecoind not found at ${DOGECOIND} (set DOGECOIND to a Dogecoin Core 1.14.9 binary): its tests are skipped`;

/** Call at the top of a dogecoind test file: prints why its tests are skipped, when they are. */
export function warnIfNoDogecoind(file: string): void {
  if (!haveDogecoind) console.warn(`SKIPPED ${file}: ${skipReason}`);
}

/** Dogecoin's own regtest genesis: the app needs no CHAIN_GENESIS_HASH override. */
export const DOGECOIN_REGTEST_GENESIS = '3d2160a3b5dc4a9d62e7e66a295f70313ac808440ef7400d6c0772171ce973a5';
/** AuxPoW is refused below this height (and legacy versions from it). */
export const AUXPOW_START = 20;
export const COINBASE_MATURITY = 60;
/** A valid regtest P2PKH address whose key nobody has: mining to it skips the wallet's bookkeeping. */
export const EXTERNAL_ADDRESS = encodeAddress('p2pkh', new Uint8Array(20).fill(2), REGTEST);

export interface DogecoindOptions {
  /** Blocks mined to the wallet at start (default 70: 10 mature coinbases of 500,000 DOGE). */
  matureBlocks?: number;
  /** Extra dogecoind arguments. */
  args?: string[];
  /** RPC timeout for rpc() calls (default 30 s). */
  rpcTimeoutMs?: number;
}

export interface PayOptions {
  /** Fee rate in koinu per 1000 bytes. Default 1_000_000 (0.01/kB, the relay's default fee_per_kb). */
  feeRateKoinuPerKb?: bigint;
  /** One OP_RETURN payload (hex). */
  dataHex?: string;
  /** Spend these outpoints (the wallet adds more inputs if they are not enough). */
  inputs?: { txid: string; vout: number }[];
}

export interface MineOptions {
  /** AuxPoW blocks (default true): blocks below height 20 are mined plain whatever this says. */
  auxpow?: boolean;
}

/** stop() asks RPC `stop` (SIGTERM if it cannot), SIGKILL after 20 s. */
export interface Dogecoind extends RegtestNode {
  /** Mine n blocks to `address` (default: EXTERNAL_ADDRESS), AuxPoW from height 20 unless told not to. Returns the hashes. */
  mine(n: number, address?: string, opts?: MineOptions): Promise<string[]>;
  /** invalidateblock: the node's best chain drops this block and its descendants (its txs go back to the mempool). */
  invalidate(hash: string): Promise<void>;
  /** Keep a mempool tx out of the blocks this node mines (a large negative fee delta; -blockprioritysize=0 makes it count). */
  exclude(txid: string): Promise<void>;
  /**
   * Build (createrawtransaction), fund (fundrawtransaction) and sign (signrawtransaction) a tx
   * paying `outputs`, and return its hex WITHOUT broadcasting it. The change output goes last.
   */
  payTo(outputs: PayOutput[], opts?: PayOptions): Promise<string>;
}

/** Dogecoin Core's own flags, and its readiness probe (past -28 "Loading wallet…"). */
const DOGECOIN: NodeKind = {
  name: 'dogecoind',
  bin: DOGECOIND,
  args: ['-txindex=1', '-blockprioritysize=0'],
  async ready(client, datadir, rpcPort, child) {
    const info = await client.call<{ chain: string }>('getblockchaininfo', [], { timeoutMs: 2_000 });
    if (info.chain !== 'regtest') throw new Error(`port ${rpcPort} answered for a ${info.chain} node`);
    await client.call('getwalletinfo', [], { timeoutMs: 2_000 });
    // Still ours (a node that grabbed the port would leave ours exiting with a bind error).
    if (child.exitCode !== null) throw new Error(`dogecoind exited during startup:\n${logTail(datadir)}`);
  },
};

export async function startDogecoind(opts: DogecoindOptions = {}): Promise<Dogecoind> {
  if (!haveDogecoind) throw new Error(skipReason);
  const matureBlocks = opts.matureBlocks ?? 70;
  const extra = opts.args ?? [];
  const started = await startNode(DOGECOIN, { datadirPrefix: 'counter-doge-', extra, rpcTimeoutMs: opts.rpcTimeoutMs });
  const { datadir, p2pPort, rpcPort, client, rpcUrl, rpc } = started;
  // Dogecoin Core stops on RPC `stop` (flushing its wallet); SIGTERM if that cannot be asked.
  const proc = new NodeProcess(DOGECOIN, started, extra, async (c) => {
    await client.call('stop', [], { timeoutMs: 5_000 }).catch(() => c.kill('SIGTERM'));
    if (!(await waitExit(c, 20_000))) {
      c.kill('SIGKILL');
      await waitExit(c, 5_000);
    }
  });
  const newAddress = () => rpc<string>('getnewaddress');

  const mine = async (n: number, address: string = EXTERNAL_ADDRESS, mopts: MineOptions = {}) => {
    const hashes: string[] = [];
    let left = n;
    if (mopts.auxpow !== false) {
      // Plain blocks up to height 19: AuxPoW is refused below 20.
      const height = await rpc<number>('getblockcount');
      const plain = Math.max(0, Math.min(left, AUXPOW_START - 1 - height));
      if (plain > 0) hashes.push(...(await rpc<string[]>('generatetoaddress', plain, address)));
      left -= plain;
    }
    for (; left > 0; left -= 500) {
      const k = Math.min(500, left);
      const got =
        mopts.auxpow === false
          ? await rpc<string[]>('generatetoaddress', k, address)
          : await rpc<string[]>('generatetoaddress', k, address, 1_000_000, 1);
      hashes.push(...got);
    }
    return hashes;
  };

  const node: Dogecoind = {
    rpcUrl,
    p2pPort,
    rpcPort,
    datadir,
    get pid() {
      return proc.pid;
    },
    rpc,
    mine,
    newAddress,

    async invalidate(hash) {
      await rpc('invalidateblock', hash);
    },

    async exclude(txid) {
      // priority delta 0, fee delta -1,000,000 DOGE (in koinu): never worth including.
      await rpc('prioritisetransaction', txid, 0, -100_000_000_000_000);
    },

    async payTo(outputs, payOpts = {}) {
      const outs: Record<string, string> = {};
      for (const o of outputs) {
        if (o.address in outs) throw new Error(`createrawtransaction takes each address once (${o.address})`);
        outs[o.address] = koinuToRpc(o.amountKoinu);
      }
      if (payOpts.dataHex) outs.data = payOpts.dataHex;
      const inputs = (payOpts.inputs ?? []).map((i) => ({ txid: i.txid, vout: i.vout }));
      const unsigned = await rpc<string>('createrawtransaction', inputs, outs);
      const funded = await rpc<{ hex: string }>('fundrawtransaction', unsigned, {
        feeRate: koinuToRpc(payOpts.feeRateKoinuPerKb ?? 1_000_000n),
        changePosition: Object.keys(outs).length,
      });
      const signed = await rpc<{ hex: string; complete: boolean; errors?: unknown }>('signrawtransaction', funded.hex);
      if (!signed.complete) throw new Error(`signrawtransaction incomplete: ${JSON.stringify(signed.errors)}`);
      return signed.hex;
    },

    send: (hex) => rpc<string>('sendrawtransaction', hex, true),

    stop: () => proc.stop(),
    restart: () => proc.restart(),
    dispose: () => proc.dispose(),
  };

  try {
    if (matureBlocks > 0) await mine(matureBlocks, await newAddress());
  } catch (err) {
    await node.dispose();
    throw err;
  }
  return node;
}
