// The /relay/pay hot path in plain SQL (docs/relay.md). Through the ORM a payment took ~12
// queries at ~4.4 ms each on PGlite (which runs on the server's event loop); here it is three
// statements: load (payment and its outputs in one query), claim (the state
// guard and the submission row in one statement) and accept (the state change, the submission
// outcome and the vendor events in one statement, so the outbox rows commit with the change).
// Each is shared by the payments of one event-loop turn: one statement for many rows costs
// about what one costs for one row, since on PGlite the cost is per statement.
import { type Db, BatchLoader, rowsById, textKey, ItemFailure, TurnBatcher, perDb } from '../db';
import { isDeadlock, isUniqueViolation, oneByOne } from './batch-retry';
import type { PaymentRow } from './view';

/** An output the payment asks for (the signed envelope's outputs, payment_output). */
export interface ExpectedOutput {
  type: string;
  address: string | null;
  amount: bigint | null;
  data: string | null;
}

/** A payment as /pay needs it: the vendor view's fields plus the relay's own. */
export interface PayRow extends PaymentRow {
  broadcastState: string;
  txHex: string | null;
  blockHash: string | null;
  buyerAddress: string;
  maxSize: number;
  feePerKb: bigint;
  updatedAt: Date;
  outputs: ExpectedOutput[];
  /** A refund (docs/api.md#refunds): the payment it refunds, and why. */
  refundOf: string | null;
  refundReason: string;
}

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const PAY_ROW_SQL = `
  SELECT p.id, p.status, p.exception, p.total::text AS total, p.address, p.issued_at, p.expires_at, p.envelope, p.pubkey,
         p.txid, p.tx_hex, p.required_confirmations, p.confirmations, p.confirmed_at, p.reason, p.refund_address,
         p.buyer_address, p.block_height, p.block_hash, p.created_at, p.updated_at, p.broadcast_state, p.max_size,
         p.amount_paid::text AS amount_paid, p.paid_txids, p.rate_value, p.rate_source, p.rate_at,
         p.fee_per_kb::text AS fee_per_kb, p.refund_of, p.refund_reason,
         (SELECT COALESCE(json_agg(json_build_object('type', o.type, 'address', o.address, 'amount', o.amount::text, 'data', o.data) ORDER BY o.idx), '[]'::json)
            FROM payment_output o WHERE o.payment_id = p.id)::text AS outputs
    FROM payment p
   WHERE p.id = $1 AND p.tender = 'doge'`;

// A cash sale (docs/counter.md#cash) is not payable by a wallet: /relay/pay finds no such id (404).
const PAY_ROWS_SQL = PAY_ROW_SQL.replace('WHERE p.id = $1', 'WHERE p.id = ANY($1::text[])');

/** The payment as /pay needs it, or null. Each caller gets its own object. */
export async function loadPayRow(db: Db, id: string): Promise<PayRow | null> {
  const key = textKey(id);
  if (key === null) return null;
  const r = await batchersFor(db).load.load(key);
  if (!r) return null;
  const outputs = (
    JSON.parse(String(r.outputs)) as { type: string; address: string | null; amount: string | null; data: string | null }[]
  ).map((o) => ({
    type: o.type,
    address: o.address,
    amount: o.amount === null ? null : BigInt(o.amount),
    data: o.data,
  }));
  return {
    id: String(r.id),
    status: String(r.status),
    exception: strOrNull(r.exception),
    total: BigInt(String(r.total)),
    address: String(r.address),
    issuedAt: date(r.issued_at),
    expiresAt: date(r.expires_at),
    envelope: String(r.envelope),
    pubkey: String(r.pubkey),
    txid: strOrNull(r.txid),
    txHex: strOrNull(r.tx_hex),
    requiredConfirmations: Number(r.required_confirmations),
    confirmations: Number(r.confirmations),
    confirmedAt: dateOrNull(r.confirmed_at),
    reason: String(r.reason ?? ''),
    refundAddress: String(r.refund_address ?? ''),
    buyerAddress: String(r.buyer_address ?? ''),
    blockHeight: intOrNull(r.block_height),
    blockHash: strOrNull(r.block_hash),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    broadcastState: String(r.broadcast_state),
    amountPaid: BigInt(String(r.amount_paid ?? '0')),
    paidTxids: Array.isArray(r.paid_txids) ? (r.paid_txids as unknown[]).map(String) : [],
    rateValue: String(r.rate_value ?? ''),
    rateSource: String(r.rate_source ?? ''),
    rateAt: dateOrNull(r.rate_at),
    maxSize: Number(r.max_size),
    feePerKb: BigInt(String(r.fee_per_kb)),
    outputs,
    refundOf: strOrNull(r.refund_of),
    refundReason: String(r.refund_reason ?? ''),
  };
}

export interface Claim {
  txid: string;
  txHex: string;
  refund: string;
  buyer: string;
  now: Date;
}

type ClaimResult = 'claimed' | 'lost' | 'duplicate_tx';
type ClaimItem = Claim & { id: string };

// Table row pay.claim (unpaid, broadcast none → pending), written as SQL: the guard
// `status = 'unpaid' AND broadcast_state = 'none'` is that row's `from`.
// Claims and records the submissions in one statement; `i` holds the claims, one row each. Here
// and in the acceptance `p.id = ANY($1)` makes the primary key the way in: joined to the unnest
// alone, the planner scanned every unpaid payment (the status index) for each batch.
const CLAIM_BODY = `
  c AS (
    UPDATE payment p SET broadcast_state = 'pending', txid = i.txid, tx_hex = i.tx_hex, refund_address = i.refund, buyer_address = i.buyer,
           updated_at = i.at::timestamptz
      FROM i
     WHERE p.id = ANY($1::text[]) AND p.id = i.id AND p.status = 'unpaid' AND p.broadcast_state = 'none'
    RETURNING p.id, p.store_id, i.txid, i.tx_hex, i.refund)
  INSERT INTO payment_submission (store_id, payment_id, txid, tx_hex, refund, outcome) SELECT store_id, id, txid, tx_hex, refund, 'pending' FROM c
  RETURNING payment_id AS id`;

// A batch: the columns as arrays, one element per claim.
const CLAIM_SQL = `
  WITH i AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS i(id, txid, tx_hex, refund, buyer, at)),
  ${CLAIM_BODY}`;

// The same statement for one claim (the usual case outside rushes), with the same arrays of one:
// their first elements as a one-row `i`, which plans as plain parameters, not a function scan.
const CLAIM_ONE_SQL = `
  WITH i AS (
    SELECT ($1::text[])[1] AS id, ($2::text[])[1] AS txid, ($3::text[])[1] AS tx_hex, ($4::text[])[1] AS refund,
           ($5::text[])[1] AS buyer, ($6::text[])[1] AS at),
  ${CLAIM_BODY}`;

function claimStatement(items: ClaimItem[]): [string, unknown[]] {
  const col = <T>(f: (c: ClaimItem) => T) => items.map(f);
  return [
    items.length === 1 ? CLAIM_ONE_SQL : CLAIM_SQL,
    [col((c) => c.id), col((c) => c.txid), col((c) => c.txHex), col((c) => c.refund), col((c) => c.buyer), col((c) => c.now.toISOString())],
  ];
}

async function claimBatch(db: Db, items: ClaimItem[]): Promise<(ClaimResult | ItemFailure)[]> {
  let rows: { id: unknown }[];
  try {
    rows = await db.query<{ id: unknown }>(...claimStatement(items));
  } catch (e) {
    // The statement changed nothing. A unique violation: a txid already pays another payment;
    // with one item that item is the duplicate, else each item is tried on its own to find
    // which. A deadlock: each on its own takes one row lock at a time.
    if (isUniqueViolation(e) && items.length === 1) return ['duplicate_tx'];
    if ((isUniqueViolation(e) || isDeadlock(e)) && items.length > 1) return oneByOne(items, (b) => claimBatch(db, b));
    throw e;
  }
  const claimed = new Set(rows.map((r) => String(r.id)));
  return items.map((c) => (claimed.has(c.id) ? 'claimed' : 'lost'));
}

/**
 * Claims an unpaid, unclaimed payment for one submission and records that submission, in one
 * statement (shared with the other claims of this turn). 'claimed', 'lost' (another submission
 * holds it or it is decided) or 'duplicate_tx' (the transaction was already submitted for another
 * payment: a pending or accepted submission's txid is unique, payment_submission_claimed_txid_key).
 */
export function claimPayment(db: Db, id: string, c: Claim): Promise<ClaimResult> {
  const key = textKey(id);
  if (key === null) return Promise.resolve('lost'); // no payment has such an id (loadPayRow found none)
  return batchersFor(db).claim.submit({ ...c, id: key });
}

/**
 * The batchers of a database. The loads of one event-loop turn share one query (as the status
 * reads do, hot-reads.ts): each is still sent after its caller asked, so it sees every write
 * committed before the call. The claims and the acceptances of one turn share one statement
 * each; a payment id or a txid appears at most once per batch (a second claim for the same
 * payment goes in the next batch, and finds it claimed).
 */
const batchersFor = perDb((db) => ({
  load: new BatchLoader(async (ids) => rowsById(await db.query<Record<string, unknown>>(PAY_ROWS_SQL, [ids]), (r) => r)),
  claim: new TurnBatcher((items: ClaimItem[]) => claimBatch(db, items), { keys: (c) => ['id:' + c.id, 'tx:' + c.txid] }),
}));

// A submission the relay refused at step 9 (its inputs are missing or spent): kept for the
// audit trail (the invoice shows it), at most REJECTED_KEPT per payment so that whoever sees
// the QR code cannot grow the table without bound.
export const REJECTED_KEPT = 50;
const RECORD_REJECTED_SQL = `
  INSERT INTO payment_submission (store_id, payment_id, txid, tx_hex, refund, outcome, error)
  SELECT (SELECT store_id FROM payment WHERE id = $1), $1, $2, $3, $4, 'rejected', $5
   WHERE (SELECT count(*) FROM payment_submission WHERE payment_id = $1 AND outcome = 'rejected') < ${REJECTED_KEPT}`;

/** Records a submission refused before any claim (docs/relay.md): the payment is untouched. */
export async function recordRejected(
  db: Db,
  id: string,
  s: { txid: string; txHex: string; refund: string; reason: string },
): Promise<void> {
  await db.query(RECORD_REJECTED_SQL, [id, s.txid, s.txHex, s.refund, s.reason]);
}

// Table row pay.release (unpaid, broadcast pending → none), written as SQL.
// Gives a claim back: the payment is unpaid with no tx again, payable by any other tx, and the
// claiming submission keeps its outcome and error. Guarded by the claimed txid, so a claim
// taken since (by another submission) is never released by this one.
const RELEASE_SQL = `
  WITH u AS (
    UPDATE payment SET broadcast_state = 'none', txid = NULL, tx_hex = NULL, refund_address = '', buyer_address = '', updated_at = $5::timestamptz
     WHERE id = $1 AND status = 'unpaid' AND broadcast_state = 'pending' AND txid = $2
    RETURNING id),
  s AS (
    UPDATE payment_submission s SET outcome = $3, error = $4
      FROM u WHERE s.payment_id = u.id AND s.outcome = 'pending' AND s.txid = $2)
  SELECT id FROM u`;

/**
 * Releases the claim of `txid` on a payment: 'rejected' (the network refused the tx: docs/protocol.md#the-relay-pay-and-status)
 * or 'ignored' (the backend was unreachable: nothing is known to have reached the network).
 * No event: the payment's state did not change. False when the claim was no longer held.
 */
export async function releaseClaim(
  db: Db,
  id: string,
  txid: string,
  outcome: 'rejected' | 'ignored',
  error: string,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(RELEASE_SQL, [id, txid, outcome, error, now.toISOString()]);
  return rows.length > 0;
}
