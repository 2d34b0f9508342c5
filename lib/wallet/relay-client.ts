// Talking to the relay (spec §4.B, §7.B): POST {relay}/pay with the Payment Submission and
// POST {relay}/status. 400 and 403 are final and never retried; 500 and 503 (and network
// failures: /pay is idempotent) are retried a few times with exponential backoff and jitter;
// anything else is a clear WalletError. Never submits after issued + timeout.
import { PaymentStatusSchema, type ConnectPayment, type PaymentStatus } from '../connect/schemas';
import { WalletError } from './errors';
import { assertNotExpired, paymentDeadline } from './envelope';
import { requireSecureUrl, type UrlOptions } from './qr';
import { withRetries, type Attempt, type RetryEnv, type RetryPolicy } from './retry';

export interface RelayOptions extends UrlOptions {
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  retryEnv?: RetryEnv;
  /** Per-request timeout, ms (default 15 s). */
  timeoutMs?: number;
  now?: () => number;
}

function endpoint(relay: string, path: 'pay' | 'status', opts: UrlOptions): string {
  const u = requireSecureUrl(relay, 'the relay URL', opts);
  return u.toString().replace(/\/+$/, '') + '/' + path;
}

async function post(url: string, body: unknown, opts: RelayOptions): Promise<{ status: number; json: unknown } | Error> {
  try {
    const res = await (opts.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let json: unknown = null;
    if (text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: res.status, json };
  } catch (e) {
    return e as Error;
  }
}

function parseStatus(json: unknown, httpStatus: number): PaymentStatus {
  const r = PaymentStatusSchema.safeParse(json);
  if (!r.success) throw new WalletError('relay_error', `the relay answered HTTP ${httpStatus} with an invalid Payment Status`, { httpStatus, detail: json });
  return r.data;
}

function errorText(json: unknown): { code: string; message: string } {
  const o = (json ?? {}) as { error?: unknown; message?: unknown };
  return { code: typeof o.error === 'string' ? o.error : 'unknown', message: typeof o.message === 'string' ? o.message : '' };
}

/** Classify one relay answer of /pay or /status. */
function classify(r: { status: number; json: unknown } | Error, what: string): Attempt<PaymentStatus> {
  if (r instanceof Error) return { retry: new WalletError('relay_unavailable', `${what}: the relay could not be reached: ${r.message}`, { cause: r }) };
  const { status, json } = r;
  if (status === 200) {
    try {
      return { done: parseStatus(json, status) };
    } catch (e) {
      return { fail: e as Error };
    }
  }
  if (status === 400) {
    const e = errorText(json);
    return { fail: new WalletError('rejected', `${what} rejected (${e.code}): ${e.message}`, { httpStatus: 400, detail: e.code }) };
  }
  if (status === 403) {
    const s = PaymentStatusSchema.safeParse(json);
    const reason = s.success && s.data.status === 'declined' ? s.data.reason : errorText(json).message;
    return { fail: new WalletError('declined', `the payment was declined: ${reason}`, { httpStatus: 403, detail: s.success ? s.data : json }) };
  }
  if (status === 404) return { fail: new WalletError('not_found', `${what}: the relay does not know this payment`, { httpStatus: 404 }) };
  if (status === 500 || status === 503) return { retry: new WalletError('relay_unavailable', `${what}: the relay answered HTTP ${status} (transient)`, { httpStatus: status }) };
  return { fail: new WalletError('relay_error', `${what}: unexpected HTTP ${status} from the relay`, { httpStatus: status, detail: json }) };
}

export interface Submission {
  tx: string;
  /** The customer's refund address (recommended). */
  refund?: string;
}

/**
 * Submit the signed transaction. Returns the Payment Status (accepted or confirmed). Throws
 * WalletError: 'rejected' (400), 'declined' (403), 'not_found' (404), 'expired' (before sending
 * or before a retry past the deadline), 'relay_unavailable' after the retries, 'relay_error'.
 */
export async function submitPayment(payment: ConnectPayment, sub: Submission, opts: RelayOptions = {}): Promise<PaymentStatus> {
  const now = opts.now ?? Date.now;
  assertNotExpired(payment, now());
  const url = endpoint(payment.relay, 'pay', opts);
  const body: Record<string, string> = { id: payment.id, tx: sub.tx };
  if (sub.refund) body.refund = sub.refund;
  if (payment.relay_token) body.relay_token = payment.relay_token; // echoed verbatim
  const deadline = paymentDeadline(payment);
  return withRetries(
    async (n) => {
      if (n > 1) assertNotExpired(payment, now());
      return classify(await post(url, body, opts), 'pay');
    },
    opts.retry,
    opts.retryEnv,
    (delay) => now() + delay < deadline,
  );
}

/** One /status query, with the transient-error retries. */
export async function paymentStatus(relay: string, id: string, opts: RelayOptions = {}): Promise<PaymentStatus> {
  const url = endpoint(relay, 'status', opts);
  return withRetries(async () => classify(await post(url, { id }, opts), 'status'), opts.retry, opts.retryEnv);
}

export interface PollOptions extends RelayOptions {
  /** Unix ms at which to give up (WalletError 'deadline'). */
  deadline: number;
  /** Delay between queries, ms (default 1000). */
  intervalMs?: number;
  /** Stop at 'accepted' (or better) instead of 'confirmed'. */
  until?: 'accepted' | 'confirmed';
  onStatus?: (s: PaymentStatus) => void;
}

/** Poll /status until confirmed (or accepted), declined (WalletError 'declined') or the deadline. */
export async function waitForStatus(relay: string, id: string, opts: PollOptions): Promise<PaymentStatus> {
  const now = opts.now ?? Date.now;
  const sleep = opts.retryEnv?.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const until = opts.until ?? 'confirmed';
  let last: PaymentStatus | null = null;
  for (;;) {
    try {
      last = await paymentStatus(relay, id, opts);
      opts.onStatus?.(last);
      if (last.status === 'confirmed' || (until === 'accepted' && last.status === 'accepted')) return last;
      if (last.status === 'declined') throw new WalletError('declined', `the payment was declined: ${last.reason}`, { detail: last });
    } catch (e) {
      if (!(e instanceof WalletError) || e.code !== 'relay_unavailable') throw e;
    }
    if (now() >= opts.deadline) {
      throw new WalletError('deadline', `the payment is not ${until} by the deadline (last status: ${last?.status ?? 'unknown'})`, { detail: last });
    }
    await sleep(Math.min(opts.intervalMs ?? 1000, Math.max(0, opts.deadline - now())));
  }
}
