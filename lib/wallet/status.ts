// Reading the relay's answers as a wallet must: what /pay and /status said, and what it means
// for the user. Two rules meet here (docs/protocol.md#relay-errors, docs/relay.md):
//
// 1. Lenient reading of 200 answers. Relays in the wild send Payment Status objects that break
//    the spec in harmless ways: no `due_sec`, `confirmed` < `required` while the status is
//    `confirmed`, an `accepted` answer without `txid`. Refusing them would tell the user a payment
//    failed after its transaction was broadcast. The status word is what matters: it is trusted,
//    numbers are reported as given, and whatever is missing or malformed is *unknown* (listed in
//    `unknown`, shown as null by statusView). A missing txid becomes the txid of the transaction
//    the wallet submitted, when it knows one. Counter's relay itself keeps to the strict
//    PaymentStatusSchema (lib/connect); nothing here is used on the relay side.
//
// 2. What each answer means (classifyRelayAnswer):
//    200 Payment Status            -> the status (declined inside a 200: final, as 403)
//    400 invalid_tx                -> this transaction was refused (bad shape, fee, missing or spent
//                                     inputs, double spend, node rejection); the payment is still
//                                     open: the wallet may pay it with another transaction
//    400 any other error           -> refused for good (invalid_outputs, expired, invalid_token, ...)
//    403                           -> declined by the vendor or merchant, or a conflicting
//                                     transaction confirmed: final
//    404                           -> unknown payment
//    500 / 503 / network failure   -> transient: retried with backoff (/pay is idempotent)
import { isRfc3339, PAYMENT_STATUSES, type PaymentStatus, type PaymentStatusValue } from '../connect';

/** Payment Status fields a relay may leave out or get wrong. */
export type StatusField = 'id' | 'txid' | 'required' | 'confirmed' | 'due_sec' | 'confirmed_at' | 'reason';

/**
 * A Payment Status as the wallet read it. The spec's fields are always present, so it is a
 * PaymentStatus; those the relay did not give (or gave malformed) are filled with 0 or "" and
 * listed in `unknown`. Show it through statusView(), which turns them back into null.
 */
export type WalletPaymentStatus = PaymentStatus & {
  /** Fields the relay did not give: their values above are placeholders, not facts. */
  unknown?: StatusField[];
  /** Where the answer departed from the spec, in words (for logs and diagnostics). */
  notes?: string[];
};

export interface StatusContext {
  /** The payment id asked about (used when the answer has none). */
  id?: string;
  /** The txid of the transaction this wallet submitted (used when `accepted` has no txid). */
  txid?: string;
}

const TXID_RE = /^[0-9a-fA-F]{64}$/;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Read a Payment Status leniently. Returns null when the answer is not a Payment Status at all
 * (not an object, or no known `status`): that is never guessed at.
 */
export function readPaymentStatus(json: unknown, ctx: StatusContext = {}): WalletPaymentStatus | null {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  if (typeof o.status !== 'string' || !(PAYMENT_STATUSES as readonly string[]).includes(o.status)) return null;
  const status = o.status as PaymentStatusValue;
  const unknown: StatusField[] = [];
  const notes: string[] = [];
  const gap = (f: StatusField, note: string) => {
    unknown.push(f);
    notes.push(note);
  };

  let id = typeof o.id === 'string' && o.id !== '' ? o.id : '';
  if (id === '') {
    if (ctx.id) {
      id = ctx.id;
      notes.push('the answer has no id: it is the payment asked about');
    } else gap('id', 'the answer has no id');
  } else if (ctx.id && id !== ctx.id) return null; // an answer about another payment is no answer

  const done = (s: PaymentStatus): WalletPaymentStatus => (unknown.length || notes.length ? { ...s, unknown, notes } : s);

  if (status === 'unpaid') return done({ id, status });

  const txidIn = typeof o.txid === 'string' && TXID_RE.test(o.txid) ? o.txid.toLowerCase() : undefined;
  if (status === 'declined') {
    const reason = typeof o.reason === 'string' && o.reason !== '' ? o.reason : '';
    if (reason === '') gap('reason', 'declined without a reason');
    return done(txidIn ? { id, status, reason, txid: txidIn } : { id, status, reason });
  }

  // accepted or confirmed: the transaction is on its way; never turn that into a failure
  let txid = txidIn ?? '';
  if (!txidIn) {
    const what = o.txid === undefined || o.txid === '' ? 'no txid' : 'a malformed txid';
    if (ctx.txid && TXID_RE.test(ctx.txid)) {
      txid = ctx.txid.toLowerCase();
      notes.push(`${status} with ${what}: it is the transaction this wallet submitted`);
    } else gap('txid', `${status} with ${what}`);
  }
  const count = (f: 'required' | 'confirmed' | 'due_sec'): number => {
    if (isCount(o[f])) return o[f] as number;
    gap(f, o[f] === undefined ? `${status} without ${f}` : `${status} with a malformed ${f}`);
    return 0;
  };
  const required = count('required');
  const confirmed = count('confirmed');
  const due_sec = count('due_sec');

  if (status === 'accepted') return done({ id, status, txid, required, confirmed, due_sec });

  if (!unknown.includes('required') && !unknown.includes('confirmed') && confirmed < required) {
    notes.push(`confirmed with ${confirmed} of ${required} confirmations: the status is trusted, the numbers are the relay's`);
  }
  if (!unknown.includes('due_sec') && due_sec !== 0) notes.push(`confirmed with due_sec ${due_sec}`);
  let confirmed_at = '';
  if (isRfc3339(o.confirmed_at)) confirmed_at = o.confirmed_at;
  else
    gap(
      'confirmed_at',
      o.confirmed_at === undefined || o.confirmed_at === '' ? 'confirmed without confirmed_at' : 'confirmed with a malformed confirmed_at',
    );
  return done({ id, status, txid, required, confirmed, due_sec, confirmed_at });
}

/** What a wallet shows for a status: the relay's facts, null where it did not say. */
export interface StatusView {
  status: PaymentStatusValue;
  id: string | null;
  txid: string | null;
  /** Confirmations so far and required, as the relay reported them. */
  confirmations: number | null;
  required: number | null;
  /** Estimated seconds until confirmed; null when unknown. */
  dueSec: number | null;
  confirmedAt: string | null;
  reason: string | null;
  /** True for accepted and confirmed: the transaction was taken by the relay. */
  paid: boolean;
  /** True for confirmed and declined: nothing more will happen to this payment. */
  final: boolean;
  notes: string[];
}

export function statusView(s: WalletPaymentStatus): StatusView {
  const unknown = new Set(s.unknown ?? []);
  const known = <T>(f: StatusField, v: T | undefined): T | null => (unknown.has(f) || v === undefined ? null : v);
  const r = s as Partial<Record<StatusField, string | number>>;
  return {
    status: s.status,
    id: known('id', s.id),
    txid: known('txid', r.txid as string | undefined),
    confirmations: known('confirmed', r.confirmed as number | undefined),
    required: known('required', r.required as number | undefined),
    dueSec: known('due_sec', r.due_sec as number | undefined),
    confirmedAt: known('confirmed_at', r.confirmed_at as string | undefined) || null,
    reason: s.status === 'declined' ? known('reason', s.reason) : null,
    paid: s.status === 'accepted' || s.status === 'confirmed',
    final: s.status === 'confirmed' || s.status === 'declined',
    notes: s.notes ?? [],
  };
}

/** The meaning of one relay answer (docs/protocol.md#relay-errors with docs/relay.md's rules). */
export type RelayOutcome =
  | { kind: 'status'; status: WalletPaymentStatus }
  /** 400 invalid_tx: this transaction was refused; the payment is still open (pay with another tx). */
  | { kind: 'tx_rejected'; httpStatus: 400; error: string; message: string }
  /** Any other 400: refused for good (wrong outputs, expired, bad token, malformed request). */
  | { kind: 'rejected'; httpStatus: 400; error: string; message: string }
  /** 403, or a declined status in a 200: final. */
  | { kind: 'declined'; httpStatus: number; status: WalletPaymentStatus | null; reason: string }
  | { kind: 'not_found'; httpStatus: 404; message: string }
  /** 500/503 or no answer: retry with backoff. */
  | { kind: 'transient'; httpStatus: number | null; message: string }
  /** Anything else (another status code, a 200 that is not a Payment Status): not retried. */
  | { kind: 'unexpected'; httpStatus: number; detail: unknown };

export type RelayAnswer = { status: number; json: unknown } | Error;

function errorBody(json: unknown): { error: string; message: string } {
  const o = (json ?? {}) as { error?: unknown; message?: unknown };
  return { error: typeof o.error === 'string' ? o.error : 'unknown', message: typeof o.message === 'string' ? o.message : '' };
}

/** Classify one answer of /pay or /status. Pure: unit-tested on its own. */
export function classifyRelayAnswer(answer: RelayAnswer, ctx: StatusContext = {}): RelayOutcome {
  if (answer instanceof Error) return { kind: 'transient', httpStatus: null, message: answer.message };
  const { status: http, json } = answer;
  if (http === 200) {
    const s = readPaymentStatus(json, ctx);
    if (!s) return { kind: 'unexpected', httpStatus: http, detail: json };
    if (s.status === 'declined') return { kind: 'declined', httpStatus: http, status: s, reason: s.reason };
    return { kind: 'status', status: s };
  }
  if (http === 400) {
    const e = errorBody(json);
    return { kind: e.error === 'invalid_tx' ? 'tx_rejected' : 'rejected', httpStatus: 400, ...e };
  }
  if (http === 403) {
    const s = readPaymentStatus(json, ctx);
    const reason = s?.status === 'declined' && s.reason ? s.reason : errorBody(json).message;
    return { kind: 'declined', httpStatus: 403, status: s?.status === 'declined' ? s : null, reason };
  }
  if (http === 404) return { kind: 'not_found', httpStatus: 404, message: errorBody(json).message };
  if (http === 500 || http === 502 || http === 503 || http === 504) {
    const e = errorBody(json);
    return { kind: 'transient', httpStatus: http, message: e.message || `HTTP ${http}` };
  }
  return { kind: 'unexpected', httpStatus: http, detail: json };
}
