// Delivers vendor events (docs/api.md#webhooks) from the vendor_event outbox to the store's webhook URL.
//
// - Due events are 'pending' with next_attempt_at <= now, taken oldest (lowest seq) first.
// - Each attempt is claimed with a compare-and-swap on (seq, 'pending', attempts, due) that bumps
//   the attempt counter and pushes next_attempt_at out by a lease, so concurrent workers (threads
//   of one process or several processes) never make the same attempt twice. A worker that dies
//   mid-attempt leaves the event to be retried when the lease runs out.
// - Only a 2xx is delivery; redirects are not followed. Every attempt is written to
//   webhook_attempt. Failures are retried with backoff (webhook-backoff.ts) until the next
//   attempt would fall more than 24 h after the event was created; the event is then 'failed'.
// - No webhook URL or secret configured: due events stay 'pending' and are not attempted, so
//   that configuring the webhook later delivers the backlog. An unsigned webhook is never sent.
// - The webhook secret never appears in logs or in the attempt log.
// - Only public addresses are sent to (webhook-address.ts), checked after DNS resolution with the
//   connection pinned to the checked address, unless WEBHOOK_ALLOW_PRIVATE=1. A refused address
//   is a failed attempt with the reason in the attempt log, retried like any other failure.
import type { Db } from '../db';
import { log as defaultLog } from '../log';
import { claimDelivery, finishDelivery, redeliverEvent, type DeliveryEnd } from '../payments';
import { nextAttemptAt } from './backoff';
import { SIGNATURE_HEADER, signWebhook } from './signature';
import { checkedFetch, pinnedFetch, webhookAllowPrivate } from './address';
import { findStore } from '../stores';

export const EVENT_ID_HEADER = 'X-Counter-Event-Id';
export const WEBHOOK_USER_AGENT = 'Counter-Webhooks/1';
export const DEFAULT_DELIVERY_LIMIT = 20;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONCURRENCY = 4;
const MAX_ERROR_CHARS = 500;
const RESPONSE_SNIPPET_BYTES = 200;

export type LogFields = Record<string, unknown>;
export interface WebhookLog {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
}

export interface DeliverOptions {
  /** Clock (tests drive time with it). Default: the system clock. */
  now?: () => Date;
  /** Replaces the HTTP client (tests); the address is still checked first. */
  fetch?: typeof fetch;
  /** Send to loopback/private/link-local addresses too. Default: WEBHOOK_ALLOW_PRIVATE=1. */
  allowPrivate?: boolean;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
  /** Most events attempted per call. Default 20. */
  limit?: number;
  /** Per-request timeout, wall-clock. Default 10 s. */
  timeoutMs?: number;
  /** How long a claimed attempt is reserved for its worker. Default timeoutMs + 60 s. */
  leaseMs?: number;
  /** Requests in flight at once within one call. Default 4. */
  concurrency?: number;
  /** Aborting stops new claims and aborts requests in flight (they count as failed attempts). */
  signal?: AbortSignal;
  log?: WebhookLog;
}

/** Why nothing was attempted although events may be due. */
export type Unconfigured = 'no_url' | 'no_secret' | 'invalid_url';

export interface DeliverResult {
  /** Attempts made by this call (claimed and sent). */
  attempted: number;
  /** Of those, how many got a 2xx. */
  delivered: number;
  /** Set when events were due but the webhook is not (validly) configured. */
  unconfigured?: Unconfigured;
}

interface Target {
  url: string;
  secret: string;
}

interface DueEvent {
  seq: bigint;
  /** The event's store: it goes to that store's webhook, signed with that store's secret. */
  storeId: number;
  id: string;
  body: string;
  attempts: number;
  createdAt: Date;
}

interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string;
  durationMs: number;
}

interface Ctx {
  now: () => Date;
  fetch: typeof fetch;
  random: () => number;
  timeoutMs: number;
  leaseMs: number;
  signal?: AbortSignal;
  log: WebhookLog;
}

/** Loggable form of a URL: no credentials, query or fragment. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '[invalid url]';
  }
}

function checkTarget(url: string, secret: string): Target | Unconfigured {
  if (!url) return 'no_url';
  if (!secret) return 'no_secret';
  try {
    const u = new URL(url);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return 'invalid_url';
  } catch {
    return 'invalid_url';
  }
  return { url, secret };
}

function truncate(s: string, max = MAX_ERROR_CHARS): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}

function errorText(err: unknown, timeoutMs: number): string {
  if (err instanceof Error || (typeof err === 'object' && err !== null && 'name' in err)) {
    const e = err as Error & { cause?: unknown };
    if (e.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
    if (e.name === 'AbortError') return 'aborted';
    const cause = e.cause as { code?: unknown; message?: unknown } | undefined;
    const detail = cause ? [cause.code, cause.message].filter((x) => typeof x === 'string' && x).join(' ') : '';
    return detail ? `${e.message}: ${detail}` : String(e.message);
  }
  return String(err);
}

/** Reads at most `max` bytes of the response body as text, then drops the rest. */
async function readSnippet(res: Response, max: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let n = 0;
  try {
    while (n < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      n += value.length;
    }
  } catch {
    // a body that fails half-way is still a failed delivery; keep what we have
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).subarray(0, max).toString('utf8');
  return text.replace(/\s+/g, ' ').trim();
}

async function post(target: Target, ev: DueEvent, sentAt: Date, ctx: Ctx): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([timeout, ctx.signal]) : timeout;
  try {
    const res = await ctx.fetch(target.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        [EVENT_ID_HEADER]: ev.id,
        [SIGNATURE_HEADER]: signWebhook(target.secret, ev.body, Math.floor(sentAt.getTime() / 1000)),
      },
      body: ev.body,
      redirect: 'manual',
      signal,
    });
    const ok = res.status >= 200 && res.status < 300;
    if (ok) {
      await res.body?.cancel().catch(() => undefined);
      return { ok, statusCode: res.status, error: '', durationMs: elapsed() };
    }
    let error: string;
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.get('location');
      await res.body?.cancel().catch(() => undefined);
      error = `HTTP ${res.status} redirect${location ? ` to ${location}` : ''} not followed (redirects are not delivery)`;
    } else {
      const snippet = await readSnippet(res, RESPONSE_SNIPPET_BYTES);
      error = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${snippet ? `: ${snippet}` : ''}`;
    }
    return { ok: false, statusCode: res.status, error: truncate(error), durationMs: elapsed() };
  } catch (err) {
    return { ok: false, statusCode: null, error: truncate(errorText(err, ctx.timeoutMs)), durationMs: elapsed() };
  }
}

/** Claims, sends and records one attempt. Returns null when another worker holds the event. */
async function attemptOne(db: Db, target: Target, ev: DueEvent, ctx: Ctx): Promise<Outcome | null> {
  const attempt = ev.attempts + 1;
  const claimAt = ctx.now();
  const leaseUntil = new Date(claimAt.getTime() + ctx.leaseMs);
  if (!(await claimDelivery(db, ev.seq, ev.attempts, claimAt, leaseUntil))) return null;

  const outcome = await post(target, ev, ctx.now(), ctx);
  const doneAt = ctx.now();
  let next: Date | null = null;
  const end: DeliveryEnd = outcome.ok
    ? { deliveryState: 'delivered', deliveredAt: doneAt }
    : (next = nextAttemptAt(ev.createdAt, attempt, doneAt, ctx.random))
      ? { nextAttemptAt: next }
      : { deliveryState: 'failed' };
  // Only finish the attempt we claimed: a redeliver() or an expired lease taken over by another
  // worker in the meantime wins, and this result is kept in the attempt log only.
  const finished = await finishDelivery(db, ev.seq, attempt, leaseUntil, end, {
    url: target.url,
    statusCode: outcome.statusCode,
    error: outcome.error,
    durationMs: outcome.durationMs,
  });

  const fields = {
    event: ev.id,
    attempt,
    url: redactUrl(target.url),
    status: outcome.statusCode,
    durationMs: outcome.durationMs,
  };
  if (outcome.ok) ctx.log.info('webhook delivered', fields);
  else if (next) ctx.log.warn('webhook attempt failed; will retry', { ...fields, error: outcome.error, nextAttemptAt: next.toISOString() });
  else ctx.log.warn('webhook attempt failed; giving up after the retry window', { ...fields, error: outcome.error });
  if (!finished) ctx.log.warn('webhook event changed during the attempt; result kept in the attempt log only', { event: ev.id, attempt });
  return outcome;
}

/** Attempts delivery of the events that are due now. Safe to run concurrently from many workers. */
export async function deliverDueEvents(db: Db, opts: DeliverOptions = {}): Promise<DeliverResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const ctx: Ctx = {
    now: opts.now ?? (() => new Date()),
    fetch: opts.fetch
      ? checkedFetch(opts.fetch, { allowPrivate: opts.allowPrivate ?? webhookAllowPrivate() })
      : pinnedFetch({ allowPrivate: opts.allowPrivate ?? webhookAllowPrivate() }),
    random: opts.random ?? Math.random,
    timeoutMs,
    leaseMs: opts.leaseMs ?? timeoutMs + 60_000,
    signal: opts.signal,
    log: opts.log ?? defaultLog,
  };
  const result: DeliverResult = { attempted: 0, delivered: 0 };
  if (ctx.signal?.aborted) return result;

  const due: DueEvent[] = await db.prisma.vendorEvent.findMany({
    where: { deliveryState: 'pending', nextAttemptAt: { lte: ctx.now() } },
    orderBy: { seq: 'asc' },
    take: Math.max(1, opts.limit ?? DEFAULT_DELIVERY_LIMIT),
    select: { seq: true, storeId: true, id: true, body: true, attempts: true, createdAt: true },
  });
  if (due.length === 0) return result;

  // The due events of all stores are read at once; each goes to its own store's webhook
  // (docs/architecture.md#data), and a store without one keeps its events pending.
  const targets = await storeTargets(db, due);
  const sendable = due.filter((ev) => typeof targets.get(ev.storeId) !== 'string');
  if (sendable.length === 0) return { ...result, unconfigured: targets.get(due[0].storeId) as Unconfigured };

  let next = 0;
  const worker = async () => {
    while (next < sendable.length && !ctx.signal?.aborted) {
      const ev = sendable[next++];
      try {
        const outcome = await attemptOne(db, targets.get(ev.storeId) as Target, ev, ctx);
        if (outcome) {
          result.attempted++;
          if (outcome.ok) result.delivered++;
        }
      } catch (err) {
        // Database trouble mid-attempt: the claim's lease expires and the event is retried.
        ctx.log.warn('webhook attempt could not be recorded', { event: ev.id, error: errorText(err, timeoutMs) });
      }
    }
  };
  const workers = Math.max(1, Math.min(opts.concurrency ?? DEFAULT_CONCURRENCY, sendable.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return result;
}

/** Each due event's store's webhook target, or why it has none. */
async function storeTargets(db: Db, due: DueEvent[]): Promise<Map<number, Target | Unconfigured>> {
  const out = new Map<number, Target | Unconfigured>();
  for (const storeId of new Set(due.map((ev) => ev.storeId))) {
    const store = await findStore(db, storeId);
    out.set(storeId, checkTarget(store?.webhookUrl.trim() ?? '', store?.webhookSecret ?? ''));
  }
  return out;
}

/**
 * The back office's "redeliver" button: makes the event due now, whatever its state. The attempt
 * counter continues, and the retry window still counts from the event's creation, so redelivering
 * an event older than 24 h gets exactly one attempt. False when there is no such event.
 */
export async function redeliver(db: Db, eventSeq: bigint, now: Date = new Date()): Promise<boolean> {
  return redeliverEvent(db, eventSeq, now);
}

export interface WebhookLoopOptions extends DeliverOptions {
  /** Pause between passes when idle. Default 1000 ms. */
  intervalMs?: number;
  /** Longest pause after repeated failures (e.g. database down). Default 30 s. */
  maxErrorDelayMs?: number;
}

export interface WebhookLoop {
  /** Stops claiming, aborts requests in flight and waits for the current pass to end. */
  stop(): Promise<void>;
}

/**
 * Runs deliverDueEvents repeatedly until stopped. Errors (a database outage) are logged and
 * retried with growing pauses, never thrown. A full batch is followed at once by the next.
 */
export function startWebhookLoop(db: Db, opts: WebhookLoopOptions = {}): WebhookLoop {
  const log = opts.log ?? defaultLog;
  const intervalMs = opts.intervalMs ?? 1000;
  const maxErrorDelayMs = opts.maxErrorDelayMs ?? 30_000;
  const limit = Math.max(1, opts.limit ?? DEFAULT_DELIVERY_LIMIT);
  const abort = new AbortController();
  const signal = opts.signal ? AbortSignal.any([abort.signal, opts.signal]) : abort.signal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let failures = 0;
  let unconfigured: Unconfigured | undefined;

  const pass = async (): Promise<number> => {
    try {
      const r = await deliverDueEvents(db, { ...opts, log, signal });
      failures = 0;
      if (r.unconfigured !== unconfigured) {
        if (r.unconfigured) log.warn('webhook not configured; vendor events stay pending', { reason: r.unconfigured });
        unconfigured = r.unconfigured;
      }
      return r.attempted >= limit ? 0 : intervalMs;
    } catch (err) {
      failures++;
      const delay = Math.min(maxErrorDelayMs, intervalMs * 2 ** Math.min(failures - 1, 16));
      log.warn('webhook delivery pass failed', { error: errorText(err, 0), retryInMs: delay });
      return delay;
    }
  };
  const schedule = (ms: number) => {
    if (signal.aborted) return;
    timer = setTimeout(() => {
      running = pass().then(schedule);
    }, ms);
    timer.unref?.();
  };
  schedule(0);

  return {
    stop: async () => {
      abort.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
