// Talking to the relay (docs/protocol.md#the-relay-pay-and-status, docs/protocol.md#relay-errors):
// POST {relay}/pay with the Payment Submission and POST {relay}/status. 400 and 403 are never
// retried (400 invalid_tx leaves the payment open for another transaction: WalletError
// 'tx_rejected'); 500 and 503 (and network failures: /pay is idempotent) are retried a few times
// with exponential backoff and jitter; anything else is a clear WalletError. Never submits after
// issued + timeout. 200 answers are read leniently (status.ts): a relay's sloppy status never
// turns a broadcast payment into a failure.
import { hexToBytesOrUndefined, type ConnectPayment } from '../connect';
import { sha256d, toHex } from '../doge/client';
import { WalletError } from './errors';
import { assertNotExpired, paymentDeadline } from './envelope';
import { requireSecureUrl, type UrlOptions } from './qr';
import { withRetries, type Attempt, type RetryEnv, type RetryPolicy } from './retry';
import { classifyRelayAnswer, type RelayAnswer, type StatusContext, type WalletPaymentStatus } from './status';

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

async function post(url: string, body: unknown, opts: RelayOptions): Promise<RelayAnswer> {
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

/** Turn one relay answer into a retry decision and a typed WalletError (see status.ts for the rules). */
function classify(r: RelayAnswer, what: 'pay' | 'status', ctx: StatusContext): Attempt<WalletPaymentStatus> {
  const o = classifyRelayAnswer(r, ctx);
  switch (o.kind) {
    case 'status':
      return { done: o.status };
    case 'tx_rejected':
      return {
        fail: new WalletError(
          'tx_rejected',
          `${what}: the relay refused this transaction (${o.error}): ${o.message}; the payment is still open, it can be paid with another transaction`,
          {
            httpStatus: 400,
            detail: o.error,
          },
        ),
      };
    case 'rejected':
      return { fail: new WalletError('rejected', `${what} rejected (${o.error}): ${o.message}`, { httpStatus: 400, detail: o.error }) };
    case 'declined':
      return {
        fail: new WalletError('declined', `the payment was declined: ${o.reason || 'no reason given'}`, {
          httpStatus: o.httpStatus,
          detail: o.status ?? (r instanceof Error ? undefined : r.json),
        }),
      };
    case 'not_found':
      return { fail: new WalletError('not_found', `${what}: the relay does not know this payment`, { httpStatus: 404 }) };
    case 'transient':
      return o.httpStatus === null
        ? { retry: new WalletError('relay_unavailable', `${what}: the relay could not be reached: ${o.message}`, { cause: r }) }
        : {
            retry: new WalletError('relay_unavailable', `${what}: the relay answered HTTP ${o.httpStatus} (transient): ${o.message}`, {
              httpStatus: o.httpStatus,
            }),
          };
    case 'unexpected':
      return {
        fail: new WalletError(
          'relay_error',
          o.httpStatus === 200
            ? `${what}: the relay answered HTTP 200 without a Payment Status`
            : `${what}: unexpected HTTP ${o.httpStatus} from the relay`,
          {
            httpStatus: o.httpStatus,
            detail: o.detail,
          },
        ),
      };
  }
}

/** The txid of a signed legacy transaction (display order), or undefined for non-hex input. */
export function txidOfHex(hex: string): string | undefined {
  const bytes = hexToBytesOrUndefined(hex);
  if (!bytes || bytes.length === 0) return undefined;
  return toHex(sha256d(bytes).reverse());
}

export interface Submission {
  tx: string;
  /** The tx's txid (computed from `tx` when omitted): stands in when an accepted answer has none. */
  txid?: string;
  /** The customer's refund address (recommended). */
  refund?: string;
}

/**
 * Submit the signed transaction. Returns the Payment Status (accepted or confirmed), read
 * leniently (status.ts). Throws WalletError: 'tx_rejected' (400 invalid_tx: the payment is still
 * open, pay it with another transaction), 'rejected' (any other 400), 'declined' (403, final),
 * 'not_found' (404), 'expired' (before sending or before a retry past the deadline),
 * 'relay_unavailable' after the retries, 'relay_error'.
 */
export async function submitPayment(payment: ConnectPayment, sub: Submission, opts: RelayOptions = {}): Promise<WalletPaymentStatus> {
  const now = opts.now ?? Date.now;
  assertNotExpired(payment, now());
  const url = endpoint(payment.relay, 'pay', opts);
  const body: Record<string, string> = { id: payment.id, tx: sub.tx };
  if (sub.refund) body.refund = sub.refund;
  // The spec lets a relay issue a relay_token, which the wallet then echoes verbatim. Counter
  // issues none (docs/relay.md); a payment without one gets a submission without one.
  if (payment.relay_token) body.relay_token = payment.relay_token;
  const deadline = paymentDeadline(payment);
  const ctx: StatusContext = { id: payment.id, txid: sub.txid ?? txidOfHex(sub.tx) };
  return withRetries(
    async (n) => {
      if (n > 1) assertNotExpired(payment, now());
      return classify(await post(url, body, opts), 'pay', ctx);
    },
    opts.retry,
    opts.retryEnv,
    (delay) => now() + delay < deadline,
  );
}

export interface StatusOptions extends RelayOptions {
  /** The txid this wallet submitted for the payment: stands in when an answer has none. */
  txid?: string;
}

/** One /status query, with the transient-error retries. A declined status is WalletError 'declined'. */
export async function paymentStatus(relay: string, id: string, opts: StatusOptions = {}): Promise<WalletPaymentStatus> {
  const url = endpoint(relay, 'status', opts);
  const ctx: StatusContext = { id, txid: opts.txid };
  return withRetries(async () => classify(await post(url, { id }, opts), 'status', ctx), opts.retry, opts.retryEnv);
}

export interface PollOptions extends StatusOptions {
  /** Unix ms at which to give up (WalletError 'deadline'). */
  deadline: number;
  /** Delay between queries, ms (default 1000). */
  intervalMs?: number;
  /** Stop at 'accepted' (or better) instead of 'confirmed'. */
  until?: 'accepted' | 'confirmed';
  onStatus?: (s: WalletPaymentStatus) => void;
}

/** Poll /status until confirmed (or accepted), declined (WalletError 'declined') or the deadline. */
export async function waitForStatus(relay: string, id: string, opts: PollOptions): Promise<WalletPaymentStatus> {
  const now = opts.now ?? Date.now;
  const sleep = opts.retryEnv?.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const until = opts.until ?? 'confirmed';
  let last: WalletPaymentStatus | null = null;
  for (;;) {
    try {
      last = await paymentStatus(relay, id, opts);
      opts.onStatus?.(last);
      if (last.status === 'confirmed' || (until === 'accepted' && last.status === 'accepted')) return last;
    } catch (e) {
      if (e instanceof WalletError && e.code === 'declined' && (e.detail as WalletPaymentStatus | undefined)?.status === 'declined') {
        opts.onStatus?.(e.detail as WalletPaymentStatus); // the final status, then the error
      }
      if (!(e instanceof WalletError) || e.code !== 'relay_unavailable') throw e;
    }
    if (now() >= opts.deadline) {
      throw new WalletError('deadline', `the payment is not ${until} by the deadline (last status: ${last?.status ?? 'unknown'})`, {
        detail: last,
      });
    }
    await sleep(Math.min(opts.intervalMs ?? 1000, Math.max(0, opts.deadline - now())));
  }
}
