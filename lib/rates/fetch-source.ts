// Asks one source for the DOGE price in a currency: one GET with a timeout and a bounded body,
// the reply parsed exactly (json-exact), its shape checked (the provider's zod schema) and its
// value checked (sanity). Never throws: the outcome is a value or a short error for the back office.
import { formatDecimal, type Decimal } from '../money';
import type { SourceSpec } from './config';
import { parseExactJson } from './json-exact';
import { PROVIDERS } from './providers';
import { parseRate } from './sanity';

export type SourceOutcome = { ok: true; value: Decimal } | { ok: false; error: string };

export interface FetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  fetch?: typeof fetch;
  /** Aborts the request early (the loop stopping). */
  signal?: AbortSignal;
}

export const RATE_TIMEOUT_MS = 5_000;
export const RATE_MAX_BYTES = 64 * 1024; // Coinbase's reply (every currency) is ~20 KiB

/** The URL asked for `currency` (origin + the provider's documented path). */
export function sourceUrl(spec: Extract<SourceSpec, { kind: 'http' }>, currency: string): string {
  return spec.origin + PROVIDERS[spec.name].path(currency);
}

async function readBounded(res: Response, maxBytes: number): Promise<string> {
  const len = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(len) && len > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`reply is larger than ${maxBytes} bytes`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`reply is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
}

const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
function isStaleSocket(e: unknown): boolean {
  const code = (e as { cause?: { code?: string } })?.cause?.code;
  return code !== undefined && STALE_SOCKET_CODES.has(code);
}

function describe(e: unknown, timeoutMs: number): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError') return `no reply within ${timeoutMs / 1000} s`;
  if (err?.name === 'AbortError') return 'stopped';
  if (err?.cause?.code) return `connection failed (${err.cause.code})`;
  if (err?.cause?.message) return `${err.message}: ${err.cause.message}`.slice(0, 200); // e.g. "fetch failed: bad port"
  return (err?.message ?? String(e)).slice(0, 200);
}

export async function fetchSource(spec: SourceSpec, currency: string, opts: FetchOptions = {}): Promise<SourceOutcome> {
  if (spec.kind === 'fixed') return { ok: true, value: spec.value };
  const timeoutMs = opts.timeoutMs ?? RATE_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? RATE_MAX_BYTES;
  const doFetch = opts.fetch ?? fetch;
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    const ask = () =>
      doFetch(sourceUrl(spec, currency), {
        signal,
        redirect: 'error',
        headers: { Accept: 'application/json', 'User-Agent': 'Counter (Dogecoin point of sale)' },
      });
    // A kept-alive socket that the provider closed while idle fails before any reply; the GET is
    // idempotent, so it is asked once more on a fresh connection, under the same timeout.
    const res = await ask().catch((e) => {
      if (isStaleSocket(e) && !signal.aborted) return ask();
      throw e;
    });
    const text = await readBounded(res, maxBytes); // still under the same timeout signal
    if (!res.ok) return { ok: false, error: `HTTP ${res.status}${text ? `: ${text.replace(/\s+/g, ' ').slice(0, 120)}` : ''}` };
    const body = parseExactJson(text);
    const raw = PROVIDERS[spec.name].extract(body, currency);
    return { ok: true, value: parseRate(raw) };
  } catch (e) {
    return { ok: false, error: describe(e, timeoutMs) };
  }
}

export const outcomeValue = (o: SourceOutcome) => (o.ok ? formatDecimal(o.value) : null);
