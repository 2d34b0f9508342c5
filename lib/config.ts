// Process configuration, read once from the environment (docs/configuration.md). loadConfig is pure:
// it takes an env object and returns a validated config or throws ConfigError naming the variable.
// This file is the only one in lib/ and app/ that reads process.env (tests/unit/config-reader.test.ts):
// config() and runtimeSettings() are the process's, read once; the modules whose settings are parsed
// beside their use (rate sources, rate limits, stream budgets, receipts, proxies) take processEnv().
import { z } from 'zod';
import { parseBirthday, type Birthday } from './chain/client';

export type NetworkName = 'mainnet' | 'testnet' | 'regtest';
export type ChainBackendName = 'spv' | 'rpc' | 'devnet';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  dbKind: 'pglite' | 'postgresql';
  network: NetworkName;
  chainBackend: ChainBackendName;
  peers: string[];
  rpcUrl: string | null;
  /** rpc only: the fast mempool poll's interval in ms, 0 = off (DOGE_RPC_MEMPOOL_POLL_MS, default 250, docs/live.md). */
  rpcMempoolPollMs: number;
  genesisHash: string | null;
  checkpoint: { height: number; hash: string } | null;
  storeXpub: string | null;
  storeAddress: string | null;
  bootstrapApiKey: string | null;
  adminEmail: string | null;
  adminPassword: string | null;
  /** devnet only: seconds between mined blocks, 0 = mine only on request (DEVNET_BLOCK_SECONDS, default 10). */
  devnetBlockSeconds: number;
  /** Open unpaid payments allowed per store; 429 beyond (MAX_OPEN_PAYMENTS, default 5000, docs/security.md). */
  maxOpenPayments: number;
  /** WALLET_BIRTHDAY: the height or UTC date from which the wallet's history is scanned (docs/node.md#the-wallets-history-birthday-and-rescan); null = from the first start. */
  walletBirthday: Birthday | null;
  /** WALLET_CHECK: `on` serves the wallet check on mainnet too, `off` nowhere; unset, everywhere but mainnet (docs/wallet-check.md#where-it-runs). */
  walletCheck: 'on' | 'off' | null;
  /** SIGNUP: `open` lets anyone create an account and a store of its own at /signup; `off` (default) serves no sign-up. */
  signup: 'open' | 'off';
  worker: 'embedded' | 'off';
  /** The chain worker's lease in ms: how long a dead worker holds off its standby (WORKER_LEASE_MS, default 8000, docs/operations.md#several-processes). */
  workerLeaseMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

const nonEmpty = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
const hex64 = /^[0-9a-f]{64}$/;

function pick<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], dflt: T): T {
  const v = nonEmpty(env[name]);
  if (v === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${v}")`);
  }
  return v as T;
}

// One reader per variable (or pair that must agree). loadConfig calls them in a fixed order, so
// that of several bad variables the same one is always named first.

function readPort(env: NodeJS.ProcessEnv): number {
  const portRaw = nonEmpty(env.PORT) ?? '3000';
  const port = z.coerce.number().int().min(1).max(65535).safeParse(portRaw);
  if (!port.success || !/^\d+$/.test(portRaw)) throw new ConfigError('PORT', `not a TCP port: "${portRaw}"`);
  return port.data;
}

/** PUBLIC_URL without its trailing slashes; by default the app on this port. */
function readPublicUrl(env: NodeJS.ProcessEnv, port: number): string {
  const publicUrl = (nonEmpty(env.PUBLIC_URL) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(publicUrl)) {
    throw new ConfigError('PUBLIC_URL', 'must be an absolute http:// or https:// URL');
  }
  return publicUrl;
}

function readDatabaseUrl(env: NodeJS.ProcessEnv): string | null {
  const databaseUrl = nonEmpty(env.DATABASE_URL) ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// or postgresql:// (unset it for embedded PGlite)');
  }
  return databaseUrl;
}

/** The network and the chain backend, which must agree: the devnet never pretends to be mainnet. */
function readChain(env: NodeJS.ProcessEnv): { network: NetworkName; chainBackend: ChainBackendName } {
  const network = pick(env, 'DOGE_NETWORK', ['mainnet', 'testnet', 'regtest'] as const, 'mainnet');
  const chainBackend = pick(env, 'CHAIN_BACKEND', ['spv', 'rpc', 'devnet'] as const, 'spv');
  if (chainBackend === 'devnet' && network === 'mainnet') {
    throw new ConfigError('CHAIN_BACKEND', 'devnet is a demo chain and never runs with DOGE_NETWORK=mainnet');
  }
  return { network, chainBackend };
}

function readPeers(env: NodeJS.ProcessEnv): string[] {
  const peers = (nonEmpty(env.DOGE_PEERS) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of peers) {
    if (!/^[A-Za-z0-9.\-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(p)) {
      throw new ConfigError('DOGE_PEERS', `"${p}" is not host:port`);
    }
  }
  return peers;
}

function readRpcUrl(env: NodeJS.ProcessEnv, chainBackend: ChainBackendName): string | null {
  const rpcUrl = nonEmpty(env.DOGE_RPC_URL) ?? null;
  if (rpcUrl !== null && !/^https?:\/\//.test(rpcUrl)) throw new ConfigError('DOGE_RPC_URL', 'must be http://user:pass@host:port');
  if (chainBackend === 'rpc' && rpcUrl === null) throw new ConfigError('DOGE_RPC_URL', 'is required with CHAIN_BACKEND=rpc');
  return rpcUrl;
}

function readRpcMempoolPollMs(env: NodeJS.ProcessEnv): number {
  const raw = nonEmpty(env.DOGE_RPC_MEMPOOL_POLL_MS) ?? '250';
  const ms = Number(raw);
  if (!/^\d{1,6}$/.test(raw) || (ms !== 0 && (ms < 50 || ms > 60_000))) {
    throw new ConfigError('DOGE_RPC_MEMPOOL_POLL_MS', 'must be 0 (off) or a whole number of milliseconds from 50 to 60000');
  }
  return ms;
}

function readGenesisHash(env: NodeJS.ProcessEnv): string | null {
  const genesisHash = nonEmpty(env.CHAIN_GENESIS_HASH)?.toLowerCase() ?? null;
  if (genesisHash !== null && !hex64.test(genesisHash)) throw new ConfigError('CHAIN_GENESIS_HASH', 'must be 64 hex digits');
  return genesisHash;
}

function readCheckpoint(env: NodeJS.ProcessEnv): Config['checkpoint'] {
  const cp = nonEmpty(env.CHAIN_CHECKPOINT);
  if (cp === undefined) return null;
  const m = /^(\d+):([0-9a-fA-F]{64})$/.exec(cp);
  if (!m) throw new ConfigError('CHAIN_CHECKPOINT', 'must be height:hash');
  return { height: Number(m[1]), hash: m[2].toLowerCase() };
}

function readDevnetBlockSeconds(env: NodeJS.ProcessEnv): number {
  const devnetRaw = nonEmpty(env.DEVNET_BLOCK_SECONDS) ?? '10';
  if (!/^\d{1,5}$/.test(devnetRaw))
    throw new ConfigError('DEVNET_BLOCK_SECONDS', 'must be a whole number of seconds (0 = mine on request only)');
  return Number(devnetRaw);
}

function readMaxOpenPayments(env: NodeJS.ProcessEnv): number {
  const maxOpenRaw = nonEmpty(env.MAX_OPEN_PAYMENTS) ?? '5000';
  if (!/^\d{1,9}$/.test(maxOpenRaw) || Number(maxOpenRaw) < 1)
    throw new ConfigError('MAX_OPEN_PAYMENTS', 'must be a whole number of payments, at least 1');
  return Number(maxOpenRaw);
}

const leaseMsSchema = z
  .string()
  .regex(/^\d{1,6}$/)
  .transform(Number)
  .pipe(z.number().int().min(2_000).max(300_000));

function readWorkerLeaseMs(env: NodeJS.ProcessEnv): number {
  const r = leaseMsSchema.safeParse(nonEmpty(env.WORKER_LEASE_MS) ?? '8000');
  if (!r.success) throw new ConfigError('WORKER_LEASE_MS', 'must be a whole number of milliseconds from 2000 to 300000');
  return r.data;
}

function readWalletBirthday(env: NodeJS.ProcessEnv): Birthday | null {
  const birthdayRaw = nonEmpty(env.WALLET_BIRTHDAY);
  if (birthdayRaw === undefined) return null;
  try {
    return parseBirthday(birthdayRaw);
  } catch (e) {
    throw new ConfigError('WALLET_BIRTHDAY', (e as Error).message);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = readPort(env);
  const host = nonEmpty(env.HOST) ?? '0.0.0.0';
  const publicUrl = readPublicUrl(env, port);
  const databaseUrl = readDatabaseUrl(env);
  const { network, chainBackend } = readChain(env);
  const peers = readPeers(env);
  const rpcUrl = readRpcUrl(env, chainBackend);
  const rpcMempoolPollMs = readRpcMempoolPollMs(env);
  const genesisHash = readGenesisHash(env);
  const checkpoint = readCheckpoint(env);
  const devnetBlockSeconds = readDevnetBlockSeconds(env);
  const maxOpenPayments = readMaxOpenPayments(env);
  const walletBirthday = readWalletBirthday(env);

  return {
    port,
    host,
    publicUrl,
    dataDir: nonEmpty(env.DATA_DIR) ?? './data',
    databaseUrl,
    dbKind: databaseUrl ? 'postgresql' : 'pglite',
    network,
    chainBackend,
    peers,
    rpcUrl,
    rpcMempoolPollMs,
    genesisHash,
    checkpoint,
    storeXpub: nonEmpty(env.STORE_XPUB) ?? null,
    storeAddress: nonEmpty(env.STORE_ADDRESS) ?? null,
    bootstrapApiKey: nonEmpty(env.BOOTSTRAP_API_KEY) ?? null,
    adminEmail: nonEmpty(env.ADMIN_EMAIL) ?? null,
    adminPassword: env.ADMIN_PASSWORD && env.ADMIN_PASSWORD !== '' ? env.ADMIN_PASSWORD : null,
    devnetBlockSeconds,
    maxOpenPayments,
    walletBirthday,
    walletCheck: nonEmpty(env.WALLET_CHECK) === undefined ? null : pick(env, 'WALLET_CHECK', ['on', 'off'] as const, 'off'),
    signup: pick(env, 'SIGNUP', ['open', 'off'] as const, 'off'),
    worker: pick(env, 'WORKER', ['embedded', 'off'] as const, 'embedded'),
    workerLeaseMs: readWorkerLeaseMs(env),
    logLevel: pick(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
  };
}

/** An environment: process.env, or a test's own. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The process environment, the one read of process.env in lib/ and app/. A live view, not a copy:
 * a test may set a variable before the module that parses it first asks.
 */
export function processEnv(): Env {
  return process.env;
}

const g = globalThis as { __counterConfig?: Config; __counterRuntime?: RuntimeSettings };

/** The process's configuration, loaded once (a bad variable throws ConfigError naming it). */
export function config(): Config {
  return (g.__counterConfig ??= loadConfig(process.env));
}

/** Operating knobs outside DESIGN's table, each with its default (docs/configuration.md). */
export interface RuntimeSettings {
  /** SCRYPT_CONCURRENCY: password hashes computed at once, 1–64 (default 2). */
  scryptConcurrency: number;
  /** PGLITE_SHARED_BUFFERS: embedded PGlite's shared_buffers in PostgreSQL units, or null for the built-in default. */
  pgliteSharedBuffers: string | null;
  /** SMTP_TIMEOUT_MS: one receipt email's connect and greeting timeout, or null for the mailer's default. */
  smtpTimeoutMs: number | null;
  /** COUNTER_BENCH_FLOOR=1: the benchmark's floor route answers (bench/ only). */
  benchFloor: boolean;
  /** COUNTER_TEST_CRASH=before-broadcast: the worker dies after claiming (crash-recovery tests only). */
  testCrashBeforeBroadcast: boolean;
  /** COUNTER_TEST_TICK_DELAY_MS: every worker tick first waits this long (tests only). */
  testTickDelayMs: number;
  /** COUNTER_TEST_RENDER_ERROR=1: /render-check fails to render (the error boundary's test only). */
  testRenderError: boolean;
}

// Lenient on purpose, as before: a nonsense value falls back to the default instead of stopping start-up.
const lenientInt = (min: number, max: number, dflt: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => {
      const n = Number(v || dflt);
      return Number.isInteger(n) && n >= min && n <= max ? n : dflt;
    });
const runtimeSchema = z.object({
  SCRYPT_CONCURRENCY: lenientInt(1, 64, 2),
  PGLITE_SHARED_BUFFERS: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v && /^\d{1,7}(kB|MB|GB)$/.test(v) ? v : null)),
  SMTP_TIMEOUT_MS: z
    .string()
    .optional()
    .transform((v) => (Number(v) > 0 ? Number(v) : null)),
  COUNTER_BENCH_FLOOR: z
    .string()
    .optional()
    .transform((v) => v === '1'),
  COUNTER_TEST_CRASH: z
    .string()
    .optional()
    .transform((v) => v === 'before-broadcast'),
  COUNTER_TEST_TICK_DELAY_MS: z
    .string()
    .optional()
    .transform((v) => (Number(v ?? 0) > 0 ? Number(v) : 0)),
  COUNTER_TEST_RENDER_ERROR: z
    .string()
    .optional()
    .transform((v) => v === '1'),
});

/** The operating knobs from `env`. */
export function loadRuntimeSettings(env: Env): RuntimeSettings {
  const r = runtimeSchema.parse(env);
  return {
    scryptConcurrency: r.SCRYPT_CONCURRENCY,
    pgliteSharedBuffers: r.PGLITE_SHARED_BUFFERS,
    smtpTimeoutMs: r.SMTP_TIMEOUT_MS,
    benchFloor: r.COUNTER_BENCH_FLOOR,
    testCrashBeforeBroadcast: r.COUNTER_TEST_CRASH,
    testTickDelayMs: r.COUNTER_TEST_TICK_DELAY_MS,
    testRenderError: r.COUNTER_TEST_RENDER_ERROR,
  };
}

/** The process's operating knobs, read once. */
export function runtimeSettings(): RuntimeSettings {
  return (g.__counterRuntime ??= loadRuntimeSettings(process.env));
}
