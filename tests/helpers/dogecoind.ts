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
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRpcClient, koinuToRpc, RpcUnavailableError, type RpcClient } from '../../lib/chain/rpc/client';
import { encodeAddress } from '../../lib/doge/address';
import { REGTEST } from '../../lib/doge/network';
import { freePort } from './ports';

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

const USER = 'u';
const PASS = 'p';

export interface DogecoindOptions {
  /** Blocks mined to the wallet at start (default 70: 10 mature coinbases of 500,000 DOGE). */
  matureBlocks?: number;
  /** Extra dogecoind arguments. */
  args?: string[];
  /** RPC timeout for rpc() calls (default 30 s). */
  rpcTimeoutMs?: number;
}

export interface PayOutput {
  address: string;
  amountKoinu: bigint;
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

export interface Dogecoind {
  /** `http://u:p@127.0.0.1:<rpcPort>` */
  readonly rpcUrl: string;
  readonly p2pPort: number;
  readonly rpcPort: number;
  readonly datadir: string;
  /** The running process id (changes on restart). */
  readonly pid: number;
  /** Raw JSON-RPC call; the result as parsed by the project's rpc-client. */
  rpc<T = any>(method: string, ...params: unknown[]): Promise<T>;
  /** Mine n blocks to `address` (default: EXTERNAL_ADDRESS), AuxPoW from height 20 unless told not to. Returns the hashes. */
  mine(n: number, address?: string, opts?: MineOptions): Promise<string[]>;
  /** invalidateblock: the node's best chain drops this block and its descendants (its txs go back to the mempool). */
  invalidate(hash: string): Promise<void>;
  /** Keep a mempool tx out of the blocks this node mines (a large negative fee delta; -blockprioritysize=0 makes it count). */
  exclude(txid: string): Promise<void>;
  newAddress(): Promise<string>;
  /**
   * Build (createrawtransaction), fund (fundrawtransaction) and sign (signrawtransaction) a tx
   * paying `outputs`, and return its hex WITHOUT broadcasting it. The change output goes last.
   */
  payTo(outputs: PayOutput[], opts?: PayOptions): Promise<string>;
  /** sendrawtransaction (for setting up chain state; the app under test broadcasts its own). */
  send(hex: string): Promise<string>;
  /** Stop the process (RPC stop, wait for exit; SIGKILL after 20 s), keeping the datadir. Idempotent. */
  stop(): Promise<void>;
  /** Start again on the same ports and datadir (after stop(), or stops first). */
  restart(): Promise<void>;
  /** stop() and delete the datadir. */
  dispose(): Promise<void>;
}

function baseArgs(datadir: string, p2pPort: number, rpcPort: number): string[] {
  return [
    '-regtest',
    `-datadir=${datadir}`,
    `-port=${p2pPort}`,
    `-rpcport=${rpcPort}`,
    '-bind=127.0.0.1',
    '-rpcbind=127.0.0.1',
    '-rpcallowip=127.0.0.1',
    '-listen=1',
    '-server=1',
    `-rpcuser=${USER}`,
    `-rpcpassword=${PASS}`,
    '-peerbloomfilters=1',
    '-txindex=1',
    '-printtoconsole=0',
    '-listenonion=0',
    '-blockprioritysize=0',
    '-dnsseed=0',
    '-discover=0',
    '-upnp=0',
    '-keypool=20',
  ];
}

function logTail(datadir: string, lines = 15): string {
  try {
    return readFileSync(join(datadir, 'regtest', 'debug.log'), 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no debug.log)';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(t);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** Spawn dogecoind and wait until RPC answers past warm-up (-28 "Loading wallet…"). */
async function launch(datadir: string, p2pPort: number, rpcPort: number, extra: string[], client: RpcClient): Promise<ChildProcess> {
  const child = spawn(DOGECOIND, [...baseArgs(datadir, p2pPort, rpcPort), ...extra], { stdio: 'ignore' });
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));
  const deadline = Date.now() + 60_000;
  for (;;) {
    await sleep(100);
    if (spawnError) throw new Error(`cannot run ${DOGECOIND}: ${(spawnError as Error).message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`dogecoind exited during startup (code ${child.exitCode}):\n${logTail(datadir)}`);
    }
    try {
      const info = await client.call<{ chain: string }>('getblockchaininfo', [], { timeoutMs: 2_000 });
      if (info.chain !== 'regtest') throw new Error(`port ${rpcPort} answered for a ${info.chain} node`);
      await client.call('getwalletinfo', [], { timeoutMs: 2_000 });
      // Still ours (a node that grabbed the port would leave ours exiting with a bind error).
      if (child.exitCode !== null) throw new Error(`dogecoind exited during startup:\n${logTail(datadir)}`);
      return child;
    } catch (err) {
      if (!(err instanceof RpcUnavailableError) || Date.now() > deadline) {
        child.kill('SIGKILL');
        await waitExit(child, 5_000);
        throw new Error(`dogecoind did not become ready: ${(err as Error).message}\n${logTail(datadir)}`);
      }
    }
  }
}

// Children still running when the test process exits are killed (a crashed test must not
// leave nodes behind).
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

export async function startDogecoind(opts: DogecoindOptions = {}): Promise<Dogecoind> {
  if (!haveDogecoind) throw new Error(skipReason);
  const matureBlocks = opts.matureBlocks ?? 70;
  const extra = opts.args ?? [];
  const datadir = mkdtempSync(join(tmpdir(), 'counter-doge-'));

  // The ports come from the kernel and are free a moment ago; retry on the rare collision.
  let child: ChildProcess | undefined;
  let p2pPort = 0;
  let rpcPort = 0;
  let client!: RpcClient;
  for (let attempt = 0; !child; attempt++) {
    p2pPort = await freePort();
    rpcPort = await freePort();
    client = createRpcClient({ url: `http://${USER}:${PASS}@127.0.0.1:${rpcPort}`, timeoutMs: opts.rpcTimeoutMs ?? 30_000 });
    try {
      child = await launch(datadir, p2pPort, rpcPort, extra, client);
    } catch (err) {
      if (attempt >= 2) {
        rmSync(datadir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  running.add(child);
  const rpcUrl = `http://${USER}:${PASS}@127.0.0.1:${rpcPort}`;
  const rpc = <T = any>(method: string, ...params: unknown[]) => client.call<T>(method, params);
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
      const got = mopts.auxpow === false ? await rpc<string[]>('generatetoaddress', k, address) : await rpc<string[]>('generatetoaddress', k, address, 1_000_000, 1);
      hashes.push(...got);
    }
    return hashes;
  };

  let stopping: Promise<void> | null = null;
  const node: Dogecoind = {
    rpcUrl,
    p2pPort,
    rpcPort,
    datadir,
    get pid() {
      return child?.pid ?? -1;
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

    async stop() {
      if (stopping) return stopping;
      const c = child;
      if (!c) return;
      stopping = (async () => {
        if (c.exitCode === null && c.signalCode === null) {
          await client.call('stop', [], { timeoutMs: 5_000 }).catch(() => c.kill('SIGTERM'));
          if (!(await waitExit(c, 20_000))) {
            c.kill('SIGKILL');
            await waitExit(c, 5_000);
          }
        }
        running.delete(c);
        child = undefined;
      })();
      try {
        await stopping;
      } finally {
        stopping = null;
      }
    },

    async restart() {
      await node.stop();
      const c = await launch(datadir, p2pPort, rpcPort, extra, client);
      child = c;
      running.add(c);
    },

    async dispose() {
      await node.stop();
      rmSync(datadir, { recursive: true, force: true });
    },
  };

  try {
    if (matureBlocks > 0) await mine(matureBlocks, await newAddress());
  } catch (err) {
    await node.dispose();
    throw err;
  }
  return node;
}
