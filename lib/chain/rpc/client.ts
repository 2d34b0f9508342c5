// A small JSON-RPC 1.0 client for Dogecoin Core (and Litecoin Core in the tests), over fetch.
//
// - `http://user:pass@host:port[/path]`: the credentials become a Basic auth header and never
//   appear in error messages (they name `http://host:port/path` only).
// - Every call has a timeout (AbortSignal), and by default its own connection (see keepAlive).
// - Amounts stay exact: Core prints amounts as JSON numbers with 8 decimals (`0.50000000`), which
//   JSON.parse would turn into floats. Before parsing, every number literal with a fraction or an
//   exponent (and every integer beyond 2^53) is rewritten into a string holding its exact text;
//   `koinuFromRpc` turns such a string into bigint koinu. Plain integers (heights, sizes, vout
//   indexes, times) stay numbers.
// - Failures are typed: `RpcUnavailableError` (cannot talk to the node: connection refused,
//   timeout, HTTP error without a JSON-RPC body, 401/403, node warming up) and `RpcError`
//   (the node answered with a JSON-RPC error `{code, message}`).
import { formatKoinuFixed, parseKoinu } from '../../money';

export type RpcUnavailableKind =
  | 'connect' // connection refused/reset, DNS failure…
  | 'timeout' // no complete answer within the timeout
  | 'auth' // 401/403: wrong user/password or -rpcallowip (a misconfiguration, reported clearly)
  | 'http' // an HTTP error status without a JSON-RPC body (e.g. 503 work queue full, wrong path)
  | 'protocol' // a body that is not a JSON-RPC response
  | 'warmup'; // RPC error -28: the node is still loading (block index, wallet…)

/** The node cannot be used right now. Callers treat the backend as unavailable. */
export class RpcUnavailableError extends Error {
  constructor(
    readonly kind: RpcUnavailableKind,
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'RpcUnavailableError';
  }
}

/** The node answered the call with a JSON-RPC error. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly method: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Core's RPC error codes that callers branch on (src/rpc/protocol.h). */
export const RPC_CODES = {
  MISC_ERROR: -1,
  TYPE_ERROR: -3,
  INVALID_ADDRESS_OR_KEY: -5, // also "not found" (tx, block, mempool entry)
  INVALID_PARAMETER: -8, // also "Block height out of range"
  DESERIALIZATION_ERROR: -22,
  VERIFY_ERROR: -25, // sendrawtransaction: missing inputs, generic failure
  VERIFY_REJECTED: -26, // sendrawtransaction: rejected by policy or consensus
  VERIFY_ALREADY_IN_CHAIN: -27,
  IN_WARMUP: -28,
  METHOD_NOT_FOUND: -32601,
} as const;

export interface RpcCall {
  method: string;
  params?: unknown[];
}

/** One item of a batch answer: a result, or the error the node gave for that call. */
export type RpcBatchItem = { ok: true; result: unknown } | { ok: false; error: RpcError };

export interface RpcClient {
  /** `http://host:port/path` without credentials, for messages and logs. */
  readonly endpoint: string;
  call<T = unknown>(method: string, params?: unknown[], opts?: { timeoutMs?: number }): Promise<T>;
  /**
   * Several calls in one HTTP request (JSON-RPC batch). Per-call errors are items, not throws;
   * unavailability throws `RpcUnavailableError` (also when any item reports -28 warm-up).
   */
  batch(calls: RpcCall[], opts?: { timeoutMs?: number }): Promise<RpcBatchItem[]>;
}

export interface RpcClientOptions {
  /** `http://user:pass@host:port[/wallet/name]` */
  url: string;
  /** Per-call timeout. Default 10 s. */
  timeoutMs?: number;
  /**
   * Reuse connections (HTTP keep-alive). Default false: one connection per call, like
   * bitcoin-cli. A kept-alive socket goes stale when the node restarts (the next call fails
   * spuriously) and holds up the node's own shutdown until the client drops it.
   */
  keepAlive?: boolean;
  /** Injected fetch (tests). Default: the global fetch. */
  fetch?: typeof fetch;
}

export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

interface ParsedUrl {
  href: string; // without credentials
  endpoint: string; // same, for messages
  authorization: string | null;
}

/** Split an RPC URL into a credential-free endpoint and a Basic authorization header. */
export function parseRpcUrl(url: string): ParsedUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // Never echo the input: it may hold a password.
    throw new TypeError('RPC URL is not a valid URL (expected http://user:pass@host:port)');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new TypeError(`RPC URL must use http or https, not ${u.protocol}`);
  }
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  const authorization = user !== '' || pass !== '' ? 'Basic ' + Buffer.from(`${user}:${pass}`, 'utf8').toString('base64') : null;
  u.username = '';
  u.password = '';
  u.hash = '';
  return { href: u.href, endpoint: u.href, authorization };
}

/**
 * Rewrite every JSON number literal that has a fraction or an exponent, or is an integer outside
 * the safe range, into a JSON string with the same text. Strings are skipped (escapes honoured).
 * Linear in the input; the input must be JSON (what is not JSON stays not JSON).
 */
export function rewriteJsonNumbers(text: string): string {
  let out = '';
  let last = 0; // start of the not-yet-copied part
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      let plainInteger = true;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d >= 0x30 && d <= 0x39) i++;
        else if (d === 0x2e /* . */ || d === 0x65 /* e */ || d === 0x45 /* E */ || d === 0x2b /* + */ || d === 0x2d) {
          plainInteger = false;
          i++;
        } else break;
      }
      const token = text.slice(start, i);
      if (!plainInteger || !Number.isSafeInteger(Number(token))) {
        out += text.slice(last, start) + '"' + token + '"';
        last = i;
      }
      continue;
    }
    i++;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** JSON.parse after `rewriteJsonNumbers`. */
export function parseRpcJson(text: string): unknown {
  return JSON.parse(rewriteJsonNumbers(text));
}

/**
 * An amount from an RPC answer (parsed with `parseRpcJson`) as exact bigint koinu.
 * Accepts Core's decimal text ("0.50000000", "-0.00022500") and plain integers (whole coins).
 */
export function koinuFromRpc(value: unknown): bigint {
  if (typeof value === 'string') return parseKoinu(value, { allowNegative: true });
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value) * 100_000_000n;
  throw new TypeError(`not an RPC amount: ${typeof value}`);
}

/** bigint koinu as the 8-decimal string Core accepts wherever it takes an amount. */
export function koinuToRpc(koinu: bigint): string {
  return formatKoinuFixed(koinu);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toRpcError(err: unknown, method: string): RpcError {
  const e = isRecord(err) ? err : {};
  const code = typeof e.code === 'number' ? e.code : RPC_CODES.MISC_ERROR;
  const message = typeof e.message === 'string' ? e.message : 'unknown RPC error';
  return new RpcError(code, message, method);
}

function describeFetchFailure(err: unknown): string {
  const cause = isRecord(err) && 'cause' in err ? (err as { cause?: unknown }).cause : undefined;
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : undefined;
  if (code) return code;
  if (isRecord(cause) && typeof cause.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}

/** The headers of one JSON-RPC POST: a fresh connection unless kept alive, and the credentials. */
function requestHeaders(target: ParsedUrl, keepAlive: boolean | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!keepAlive) headers.connection = 'close';
  if (target.authorization) headers.authorization = target.authorization;
  return headers;
}

/** Why a request got no HTTP answer at all: the timeout fired, or the node cannot be reached. */
function fetchFailure(err: unknown, signal: AbortSignal, label: string, where: string, timeoutMs: number): RpcUnavailableError {
  if (isAbort(err) || signal.aborted) {
    return new RpcUnavailableError('timeout', `RPC ${label} to ${where} timed out after ${timeoutMs} ms`, err);
  }
  return new RpcUnavailableError('connect', `RPC ${label}: cannot reach ${where} (${describeFetchFailure(err)})`, err);
}

/** The node refused the client before running anything (HTTP 401/403): say which setting to check. */
function authFailure(status: number, label: string, where: string): RpcUnavailableError | null {
  if (status === 401) {
    return new RpcUnavailableError(
      'auth',
      `RPC ${label}: ${where} refused the credentials (HTTP 401): check user and password in the RPC URL`,
    );
  }
  if (status === 403) {
    return new RpcUnavailableError('auth', `RPC ${label}: ${where} forbids this client (HTTP 403): check the node's -rpcallowip`);
  }
  return null;
}

/**
 * The JSON-RPC body of an answer (an object or an array). Anything else, an HTML error page
 * from a proxy for instance, means the node is not reachable as a node: unavailable, not an
 * RPC error.
 */
function rpcBody(text: string, status: number, label: string, where: string): unknown {
  let json: unknown;
  try {
    json = parseRpcJson(text);
  } catch {
    json = undefined;
  }
  if (json === undefined || (!isRecord(json) && !Array.isArray(json))) {
    const kind = status >= 300 ? 'http' : 'protocol';
    throw new RpcUnavailableError(kind, `RPC ${label}: ${where} answered HTTP ${status} without a JSON-RPC body`);
  }
  return json;
}

/**
 * The error a node reported for `label`. Warm-up (-28) is not the call's fault: the node is
 * starting, so it is unavailability, which callers retry, rather than an RPC error.
 */
function nodeError(error: unknown, label: string, where: string): RpcError | RpcUnavailableError {
  const e = toRpcError(error, label);
  if (e.code === RPC_CODES.IN_WARMUP)
    return new RpcUnavailableError('warmup', `RPC ${label}: node at ${where} is starting (${e.message})`, e);
  return e;
}

const unexpectedBody = (label: string, where: string, status: number) =>
  new RpcUnavailableError('protocol', `RPC ${label}: ${where} answered HTTP ${status} with an unexpected body`);

/** The result of one call's answer, or the node's error thrown. */
function callResult(json: unknown, status: number, method: string, where: string): unknown {
  if (!isRecord(json) || !('result' in json || 'error' in json)) throw unexpectedBody(method, where, status);
  if (json.error !== null && json.error !== undefined) throw nodeError(json.error, method, where);
  return json.result;
}

/**
 * A batch answer's items in the order of `calls` (the node may answer in any order; the id is
 * the call's index). A per-call error is an item, except warm-up, which throws for the batch.
 */
function batchItems(json: unknown, calls: RpcCall[], status: number, label: string, where: string): RpcBatchItem[] {
  if (!Array.isArray(json)) {
    // A whole-batch failure (e.g. a parse error) comes back as one error object.
    if (isRecord(json) && json.error) throw nodeError(json.error, label, where);
    throw unexpectedBody(label, where, status);
  }
  const items: (RpcBatchItem | undefined)[] = new Array(calls.length);
  for (const reply of json) {
    if (!isRecord(reply) || typeof reply.id !== 'number' || reply.id < 0 || reply.id >= calls.length) continue;
    if (reply.error !== null && reply.error !== undefined) {
      const e = nodeError(reply.error, calls[reply.id].method, where);
      if (e instanceof RpcUnavailableError) throw e;
      items[reply.id] = { ok: false, error: e };
    } else {
      items[reply.id] = { ok: true, result: reply.result };
    }
  }
  return Array.from(items, (item, id) => {
    if (item) return item;
    throw new RpcUnavailableError('protocol', `RPC ${label}: ${where} sent no answer for call ${id} (${calls[id].method})`);
  });
}

export function createRpcClient(opts: RpcClientOptions): RpcClient {
  const target = parseRpcUrl(opts.url);
  const doFetch = opts.fetch ?? fetch;
  const defaultTimeout = opts.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  const where = target.endpoint;

  /** POST one JSON-RPC body; returns the parsed JSON answer, or throws RpcUnavailableError. */
  async function post(body: string, label: string, timeoutMs: number): Promise<{ status: number; json: unknown }> {
    const headers = requestHeaders(target, opts.keepAlive);
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let text: string;
    try {
      const res = await doFetch(target.href, { method: 'POST', headers, body, signal });
      status = res.status;
      text = await res.text();
    } catch (err) {
      throw fetchFailure(err, signal, label, where, timeoutMs);
    }
    const refused = authFailure(status, label, where);
    if (refused) throw refused;
    return { status, json: rpcBody(text, status, label, where) };
  }

  return {
    endpoint: where,

    async call<T = unknown>(method: string, params: unknown[] = [], callOpts: { timeoutMs?: number } = {}): Promise<T> {
      const body = JSON.stringify({ jsonrpc: '1.0', id: method, method, params });
      const { status, json } = await post(body, method, callOpts.timeoutMs ?? defaultTimeout);
      return callResult(json, status, method, where) as T;
    },

    async batch(calls: RpcCall[], callOpts: { timeoutMs?: number } = {}): Promise<RpcBatchItem[]> {
      if (calls.length === 0) return [];
      const body = JSON.stringify(calls.map((c, id) => ({ jsonrpc: '1.0', id, method: c.method, params: c.params ?? [] })));
      const label = `batch(${calls.length})`;
      const { status, json } = await post(body, label, callOpts.timeoutMs ?? defaultTimeout);
      return batchItems(json, calls, status, label, where);
    },
  };
}
