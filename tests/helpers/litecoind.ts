// A throwaway `litecoind -regtest` node on loopback for backend tests. Litecoin Core stands in
// for Dogecoin Core (docs/architecture.md#chain-backends): same RPCs, regtest magic, address prefixes and tpub keys.
//
//   const node = await startLitecoind();          // wallet "w" with mature coins
//   const hex = await node.payTo([{ address, amountKoinu: 150_000_000n }]); // signed, NOT sent
//   await node.mine(1);
//   await node.dispose();                         // stop and delete the datadir
//
// RPC answers go through lib/chain/rpc/client: number literals with a fraction (amounts,
// difficulty…) arrive as exact strings; use koinuFromRpc for amounts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRpcClient, koinuToRpc, RpcUnavailableError, type RpcClient } from '../../lib/chain/rpc/client';
import { encodeAddress } from '../../lib/doge/address';
import { REGTEST } from '../../lib/doge/network';
import { freePort } from './ports';

export const LITECOIND = process.env.LITECOIND_BIN ?? '/usr/bin/litecoind';
export const LITECOIN_REGTEST_GENESIS = '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9';
/**
 * A valid regtest P2PKH address whose key nobody has (hash160 = 20 × 0x01). Mining to it skips
 * the wallet's bookkeeping, which makes generatetoaddress about 10× faster.
 */
export const EXTERNAL_ADDRESS = encodeAddress('p2pkh', new Uint8Array(20).fill(1), REGTEST);

const USER = 'u';
const PASS = 'p';
const WALLET = 'w';

export interface LitecoindOptions {
  /** Create wallet "w" (default true). Without it, mine() needs an address and payTo fails. */
  wallet?: boolean;
  /**
   * Blocks mined to the wallet at start so it has spendable coins (default 120: 20 mature
   * coinbases of 50 LTC). 0 leaves the chain at genesis. Ignored without a wallet.
   */
  matureBlocks?: number;
  /** Extra litecoind arguments. */
  args?: string[];
  /** RPC timeout for rpc() calls (default 30 s). */
  rpcTimeoutMs?: number;
}

export interface PayOutput {
  address: string;
  amountKoinu: bigint;
}

export interface PayOptions {
  /** Fee rate in koinu (litoshi) per 1000 bytes. Default 1_000_000 (0.01/kB, the relay's default fee_per_kb). */
  feeRateKoinuPerKb?: bigint;
  /** OP_RETURN payloads (hex), appended after the outputs. Core's policy relays only one per tx. */
  dataHex?: string[];
  /** Spend these outpoints (the wallet adds more inputs if they are not enough). */
  inputs?: { txid: string; vout: number }[];
  /** Opt into BIP125 replaceability (sequence < 0xfffffffe). Default false. */
  replaceable?: boolean;
}

export interface Litecoind {
  /** `http://u:p@127.0.0.1:<rpcPort>` */
  readonly rpcUrl: string;
  readonly p2pPort: number;
  readonly rpcPort: number;
  readonly datadir: string;
  /** The running process id (changes on restart). */
  readonly pid: number;
  /** Raw JSON-RPC call; the result as parsed by the project's rpc-client. */
  rpc<T = any>(method: string, ...params: unknown[]): Promise<T>;
  /** Mine n blocks to `address` (default: a fresh wallet address). Returns the block hashes. */
  mine(n: number, address?: string): Promise<string[]>;
  /**
   * Mine n blocks that hold only their coinbase, whatever the mempool holds (generateblock with
   * no txs): a reorg's replacement chain that certainly leaves a tx out.
   */
  mineEmpty(n: number, address?: string): Promise<string[]>;
  newAddress(): Promise<string>;
  /**
   * Build, fund (fundrawtransaction, legacy) and sign (signrawtransactionwithwallet) a tx paying
   * `outputs`, and return its hex WITHOUT broadcasting it. `outputs` is either a list of
   * address/koinu pairs or a raw createrawtransaction outputs argument. The change output goes last.
   */
  payTo(outputs: PayOutput[] | Record<string, string> | Record<string, string>[], opts?: PayOptions): Promise<string>;
  /** sendrawtransaction (for setting up chain state; the app under test broadcasts its own). */
  send(hex: string): Promise<string>;
  /** Connect to another node (addnode onetry) and wait until the peer shows up. */
  connect(other: Pick<Litecoind, 'p2pPort'>): Promise<void>;
  /** Stop the process (SIGTERM, then SIGKILL after 15 s), keeping the datadir. Idempotent. */
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
    `-rpcuser=${USER}`,
    `-rpcpassword=${PASS}`,
    '-peerbloomfilters=1',
    '-fallbackfee=0.0002',
    '-maxtxfee=100', // tests may pay Dogecoin-sized fees (0.01+/kB)
    '-addresstype=legacy',
    '-changetype=legacy',
    '-vbparams=mweb:4102444800:4102444801', // keep MWEB off: mining fails from height 432 otherwise
    '-listen=1',
    '-server=1',
    '-txindex=0',
    '-dnsseed=0',
    '-discover=0',
    '-listenonion=0',
    '-upnp=0',
    '-printtoconsole=0',
    '-keypool=20', // createwallet otherwise derives 2000 keys (~2 s)
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

/** Spawn litecoind and wait until RPC answers (past warm-up). Throws with the log tail on failure. */
async function launch(datadir: string, p2pPort: number, rpcPort: number, extra: string[], client: RpcClient): Promise<ChildProcess> {
  const child = spawn(LITECOIND, [...baseArgs(datadir, p2pPort, rpcPort), ...extra], { stdio: 'ignore' });
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));
  const deadline = Date.now() + 60_000;
  for (;;) {
    await sleep(100);
    if (spawnError) throw new Error(`cannot run ${LITECOIND}: ${(spawnError as Error).message} (apt-get install litecoind)`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`litecoind exited during startup (code ${child.exitCode}):\n${logTail(datadir)}`);
    }
    try {
      // getrpcinfo names this node's log file: proves we reached our node, not another one
      // that grabbed the port.
      const info = await client.call<{ logpath?: string }>('getrpcinfo', [], { timeoutMs: 2_000 });
      if (!info.logpath?.startsWith(datadir)) throw new Error(`port ${rpcPort} answered for another node`);
      await client.call('getblockchaininfo', [], { timeoutMs: 2_000 });
      return child;
    } catch (err) {
      if (!(err instanceof RpcUnavailableError) || Date.now() > deadline) {
        child.kill('SIGKILL');
        await waitExit(child, 5_000);
        throw new Error(`litecoind did not become ready: ${(err as Error).message}\n${logTail(datadir)}`);
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

export async function startLitecoind(opts: LitecoindOptions = {}): Promise<Litecoind> {
  const withWallet = opts.wallet ?? true;
  const matureBlocks = withWallet ? (opts.matureBlocks ?? 120) : 0;
  const extra = opts.args ?? [];
  const datadir = mkdtempSync(join(tmpdir(), 'counter-ltc-'));

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

  if (withWallet) {
    // load_on_startup=true so restart() brings the wallet back.
    await rpc('createwallet', WALLET, false, false, '', false, false, true);
  }

  const newAddress = () => rpc<string>('getnewaddress');
  // Large counts go in chunks, so one RPC call stays well inside its timeout on a busy machine.
  const mine = async (n: number, address?: string) => {
    const to = address ?? (await newAddress());
    const hashes: string[] = [];
    for (let left = n; left > 0; left -= 500) hashes.push(...(await rpc<string[]>('generatetoaddress', Math.min(500, left), to)));
    return hashes;
  };
  const mineEmpty = async (n: number, address?: string) => {
    const to = address ?? (await newAddress());
    const hashes: string[] = [];
    for (let i = 0; i < n; i++) hashes.push((await rpc<{ hash: string }>('generateblock', to, [])).hash);
    return hashes;
  };

  const node: Litecoind = {
    rpcUrl,
    p2pPort,
    rpcPort,
    datadir,
    get pid() {
      return child?.pid ?? -1;
    },
    rpc,
    mine,
    mineEmpty,
    newAddress,

    async payTo(outputs, payOpts = {}) {
      let outs: unknown;
      if (Array.isArray(outputs) && outputs.every((o) => typeof o === 'object' && o !== null && 'amountKoinu' in o)) {
        outs = (outputs as PayOutput[]).map((o) => ({ [o.address]: koinuToRpc(o.amountKoinu) }));
      } else {
        outs = Array.isArray(outputs) ? [...outputs] : Object.entries(outputs).map(([k, v]) => ({ [k]: v }));
      }
      const list = outs as Record<string, string>[];
      for (const data of payOpts.dataHex ?? []) list.push({ data });
      const inputs = (payOpts.inputs ?? []).map((i) => ({ txid: i.txid, vout: i.vout }));
      const unsigned = await rpc<string>('createrawtransaction', inputs, list, 0, payOpts.replaceable ?? false);
      const funded = await rpc<{ hex: string }>('fundrawtransaction', unsigned, {
        feeRate: koinuToRpc(payOpts.feeRateKoinuPerKb ?? 1_000_000n),
        changePosition: list.length,
        replaceable: payOpts.replaceable ?? false,
      });
      const signed = await rpc<{ hex: string; complete: boolean; errors?: unknown }>('signrawtransactionwithwallet', funded.hex);
      if (!signed.complete) throw new Error(`signrawtransactionwithwallet incomplete: ${JSON.stringify(signed.errors)}`);
      return signed.hex;
    },

    send: (hex) => rpc<string>('sendrawtransaction', hex, 0),

    async connect(other) {
      const addr = `127.0.0.1:${other.p2pPort}`;
      await rpc('addnode', addr, 'onetry');
      const deadline = Date.now() + 10_000;
      for (;;) {
        const peers = await rpc<{ addr: string }[]>('getpeerinfo');
        if (peers.some((p) => p.addr === addr)) return;
        if (Date.now() > deadline) throw new Error(`node did not connect to ${addr}`);
        await sleep(100);
      }
    },

    async stop() {
      const c = child;
      if (!c) return;
      child = undefined;
      running.delete(c);
      if (c.exitCode !== null || c.signalCode !== null) return;
      c.kill('SIGTERM');
      if (!(await waitExit(c, 15_000))) {
        c.kill('SIGKILL');
        await waitExit(c, 5_000);
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
    if (matureBlocks > 0) await mine(matureBlocks);
  } catch (err) {
    await node.dispose();
    throw err;
  }
  return node;
}
