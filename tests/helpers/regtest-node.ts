// What the two regtest nodes of the tests share: `litecoind -regtest` (litecoind.ts, standing in
// for Dogecoin Core where its RPCs are the same) and `dogecoind -regtest` (dogecoind.ts, Dogecoin
// Core 1.14.9 itself). Both run on loopback with a throwaway datadir on free ports, answer the
// same JSON-RPC through lib/chain/rpc/client, and are killed if the test process exits first.
// Each file keeps what differs: its flags, how it tells it is ready, its wallet, how it mines and
// how it builds a payment.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRpcClient, RpcUnavailableError, type RpcClient } from '../../lib/chain/rpc/client';
import { freePort } from './ports';
import { sleep } from './wait';

const USER = 'u';
const PASS = 'p';

/** What both regtest nodes give a test: where they listen, raw RPC, and their process's life. */
export interface RegtestNode {
  /** `http://u:p@127.0.0.1:<rpcPort>` */
  readonly rpcUrl: string;
  readonly p2pPort: number;
  readonly rpcPort: number;
  readonly datadir: string;
  /** The running process id (changes on restart). */
  readonly pid: number;
  /** Raw JSON-RPC call; the result as parsed by the project's rpc-client. */
  rpc<T = unknown>(method: string, ...params: unknown[]): Promise<T>;
  newAddress(): Promise<string>;
  /** sendrawtransaction (for setting up chain state; the app under test broadcasts its own). */
  send(hex: string): Promise<string>;
  /** Stop the process (the kind's own way, SIGKILL as a last resort), keeping the datadir. Idempotent. */
  stop(): Promise<void>;
  /** Start again on the same ports and datadir (after stop(), or stops first). */
  restart(): Promise<void>;
  /** stop() and delete the datadir. */
  dispose(): Promise<void>;
}

export interface PayOutput {
  address: string;
  amountKoinu: bigint;
}

/** One kind of node: its binary, its own flags, and its readiness probe. */
export interface NodeKind {
  /** `litecoind`, `dogecoind`: for messages. */
  name: string;
  bin: string;
  /** Flags beyond the shared ones (baseArgs). */
  args: string[];
  /** Hint appended when the binary cannot be run. */
  installHint?: string;
  /**
   * Resolves once RPC answers past warm-up for THIS node (not another one that grabbed the
   * port); throws RpcUnavailableError while it is still starting.
   */
  ready(client: RpcClient, datadir: string, rpcPort: number, child: ChildProcess): Promise<void>;
}

/** The flags both nodes take: regtest on loopback, RPC with a fixed user, no outside contact. */
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
    '-printtoconsole=0',
    '-listenonion=0',
    '-dnsseed=0',
    '-discover=0',
    '-upnp=0',
    '-keypool=20', // a new wallet otherwise derives thousands of keys (seconds)
  ];
}

export function logTail(datadir: string, lines = 15): string {
  try {
    return readFileSync(join(datadir, 'regtest', 'debug.log'), 'utf8')
      .trim()
      .split('\n')
      .slice(-lines)
      .join('\n');
  } catch {
    return '(no debug.log)';
  }
}

/** Resolves true once `child` has exited, false after `ms`. */
export function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
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

// Children still running when the test process exits are killed (a crashed test must not
// leave nodes behind).
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});
export const track = (c: ChildProcess) => running.add(c);
export const untrack = (c: ChildProcess) => running.delete(c);

/** Spawns the node and waits until it is ready. Throws with the log tail on failure. */
export async function launch(
  kind: NodeKind,
  datadir: string,
  p2pPort: number,
  rpcPort: number,
  extra: string[],
  client: RpcClient,
): Promise<ChildProcess> {
  const child = spawn(kind.bin, [...baseArgs(datadir, p2pPort, rpcPort), ...kind.args, ...extra], { stdio: 'ignore' });
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));
  const deadline = Date.now() + 60_000;
  for (;;) {
    await sleep(100);
    if (spawnError)
      throw new Error(`cannot run ${kind.bin}: ${(spawnError as Error).message}${kind.installHint ? ` (${kind.installHint})` : ''}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${kind.name} exited during startup (code ${child.exitCode}):\n${logTail(datadir)}`);
    }
    try {
      await kind.ready(client, datadir, rpcPort, child);
      return child;
    } catch (err) {
      if (!(err instanceof RpcUnavailableError) || Date.now() > deadline) {
        child.kill('SIGKILL');
        await waitExit(child, 5_000);
        throw new Error(`${kind.name} did not become ready: ${(err as Error).message}\n${logTail(datadir)}`);
      }
    }
  }
}

export interface StartedNode {
  child: ChildProcess;
  datadir: string;
  p2pPort: number;
  rpcPort: number;
  client: RpcClient;
  /** `http://u:p@127.0.0.1:<rpcPort>` */
  rpcUrl: string;
  rpc<T = unknown>(method: string, ...params: unknown[]): Promise<T>;
}

/**
 * Starts a node of `kind` in a new datadir on two free ports. The ports come from the kernel
 * and were free a moment ago: on the rare collision it tries again, twice.
 */
export async function startNode(
  kind: NodeKind,
  opts: { datadirPrefix: string; extra?: string[]; rpcTimeoutMs?: number },
): Promise<StartedNode> {
  const datadir = mkdtempSync(join(tmpdir(), opts.datadirPrefix));
  let child: ChildProcess | undefined;
  let p2pPort = 0;
  let rpcPort = 0;
  let client!: RpcClient;
  for (let attempt = 0; !child; attempt++) {
    p2pPort = await freePort();
    rpcPort = await freePort();
    client = createRpcClient({ url: `http://${USER}:${PASS}@127.0.0.1:${rpcPort}`, timeoutMs: opts.rpcTimeoutMs ?? 30_000 });
    try {
      child = await launch(kind, datadir, p2pPort, rpcPort, opts.extra ?? [], client);
    } catch (err) {
      if (attempt >= 2) {
        rmSync(datadir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  track(child);
  const c = client;
  return {
    child,
    datadir,
    p2pPort,
    rpcPort,
    client,
    rpcUrl: `http://${USER}:${PASS}@127.0.0.1:${rpcPort}`,
    rpc: <T = unknown>(method: string, ...params: unknown[]) => c.call<T>(method, params),
  };
}

/**
 * A started node's process: its pid, stop (the kind's own way, once even if asked twice at the
 * same time), restart on the same ports and datadir, and dispose (stop, then delete the datadir).
 */
export class NodeProcess {
  private child: ChildProcess | undefined;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly kind: NodeKind,
    private readonly started: StartedNode,
    private readonly extra: string[],
    /** Ends the running child (the caller has checked it is still running). */
    private readonly stopChild: (c: ChildProcess) => Promise<void>,
  ) {
    this.child = started.child;
  }

  get pid(): number {
    return this.child?.pid ?? -1;
  }

  async stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    const c = this.child;
    if (!c) return;
    this.stopping = (async () => {
      if (c.exitCode === null && c.signalCode === null) await this.stopChild(c);
      untrack(c);
      this.child = undefined;
    })();
    try {
      await this.stopping;
    } finally {
      this.stopping = null;
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    const { datadir, p2pPort, rpcPort, client } = this.started;
    const c = await launch(this.kind, datadir, p2pPort, rpcPort, this.extra, client);
    this.child = c;
    track(c);
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.started.datadir, { recursive: true, force: true });
  }
}

/** Stops a child with SIGTERM, then SIGKILL if it has not exited within `ms`. */
export async function terminate(c: ChildProcess, ms: number): Promise<void> {
  c.kill('SIGTERM');
  if (!(await waitExit(c, ms))) {
    c.kill('SIGKILL');
    await waitExit(c, 5_000);
  }
}
