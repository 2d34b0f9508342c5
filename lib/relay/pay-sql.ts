// The /relay/pay hot path in plain SQL (DESIGN.md §4). Through the ORM a payment took ~12
// queries at ~4.4 ms each on PGlite (which runs on the server's event loop); here it is three
// statements: load (payment, its outputs and its relay key in one query), claim (the state
// guard and the submission row in one statement) and accept (the state change, the submission
// outcome and the vendor events in one statement, so the outbox rows commit with the change).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { BatchLoader, rowsById, textKey } from '../db/batch-loader';
import type { EventType } from './events';
import { vendorPaymentView, type PaymentRow } from './payment-view';
import type { ExpectedOutput } from './tx-checks';

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
  /** The token key of the relay key that signed the payment (active or retired), or null. */
  tokenKey: Uint8Array | null;
}

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const PAY_ROW_SQL = `
  SELECT p.id, p.status, p.exception, p.total::text AS total, p.address, p.issued_at, p.expires_at, p.envelope, p.pubkey,
         p.txid, p.tx_hex, p.required_confirmations, p.confirmations, p.confirmed_at, p.reason, p.refund_address,
         p.buyer_address, p.block_height, p.block_hash, p.created_at, p.updated_at, p.broadcast_state, p.max_size,
         p.fee_per_kb::text AS fee_per_kb, k.token_key,
         (SELECT COALESCE(json_agg(json_build_object('type', o.type, 'address', o.address, 'amount', o.amount::text, 'data', o.data) ORDER BY o.idx), '[]'::json)
            FROM payment_output o WHERE o.payment_id = p.id)::text AS outputs
    FROM payment p LEFT JOIN relay_key k ON k.pubkey = p.pubkey
   WHERE p.id = $1`;

const PAY_ROWS_SQL = PAY_ROW_SQL.replace('WHERE p.id = $1', 'WHERE p.id = ANY($1::text[])');

// The loads of one event-loop turn share one query (as the status reads do, hot-reads.ts): each
// is still sent after its caller asked, so it sees every write committed before the call.
const loaders = new WeakMap<Db, BatchLoader<Record<string, unknown>>>();
function loaderFor(db: Db): BatchLoader<Record<string, unknown>> {
  let l = loaders.get(db);
  if (!l) {
    l = new BatchLoader(async (ids) => rowsById(await db.query<Record<string, unknown>>(PAY_ROWS_SQL, [ids]), (r) => r));
    loaders.set(db, l);
  }
  return l;
}

/** The payment as /pay needs it, or null. Each caller gets its own object. */
export async function loadPayRow(db: Db, id: string): Promise<PayRow | null> {
  const key = textKey(id);
  if (key === null) return null;
  const r = await loaderFor(db).load(key);
  if (!r) return null;
  const outputs = (JSON.parse(String(r.outputs)) as { type: string; address: string | null; amount: string | null; data: string | null }[]).map((o) => ({
    type: o.type, address: o.address, amount: o.amount === null ? null : BigInt(o.amount), data: o.data,
  }));
  return {
    id: String(r.id), status: String(r.status), exception: strOrNull(r.exception), total: BigInt(String(r.total)), address: String(r.address),
    issuedAt: date(r.issued_at), expiresAt: date(r.expires_at), envelope: String(r.envelope), pubkey: String(r.pubkey),
    txid: strOrNull(r.txid), txHex: strOrNull(r.tx_hex), requiredConfirmations: Number(r.required_confirmations),
    confirmations: Number(r.confirmations), confirmedAt: dateOrNull(r.confirmed_at), reason: String(r.reason ?? ''),
    refundAddress: String(r.refund_address ?? ''), buyerAddress: String(r.buyer_address ?? ''), blockHeight: intOrNull(r.block_height),
    blockHash: strOrNull(r.block_hash), createdAt: date(r.created_at), updatedAt: date(r.updated_at), broadcastState: String(r.broadcast_state),
    maxSize: Number(r.max_size), feePerKb: BigInt(String(r.fee_per_kb)), outputs,
    tokenKey: r.token_key === null || r.token_key === undefined ? null : new Uint8Array(r.token_key as Uint8Array),
  };
}

export interface Claim {
  txid: string;
  txHex: string;
  refund: string;
  buyer: string;
  now: Date;
}

const isUniqueViolation = (e: unknown) => {
  const x = e as { code?: unknown; message?: unknown } | null;
  return x?.code === '23505' || /duplicate key value/.test(String(x?.message ?? ''));
};

/**
 * Claims an unpaid, unclaimed payment for one submission and records that submission, in one
 * statement. 'claimed', 'lost' (another submission holds it or it is decided) or 'duplicate_tx'
 * (the transaction already pays another payment: the txid is unique).
 */
export async function claimPayment(db: Db, id: string, c: Claim): Promise<'claimed' | 'lost' | 'duplicate_tx'> {
  try {
    const rows = await db.query<{ id: unknown }>(
      `WITH c AS (
         UPDATE payment SET broadcast_state = 'pending', txid = $2, tx_hex = $3, refund_address = $4, buyer_address = $5, updated_at = $6
          WHERE id = $1 AND status = 'unpaid' AND broadcast_state = 'none'
         RETURNING id)
       INSERT INTO payment_submission (payment_id, txid, tx_hex, refund, outcome) SELECT id, $2, $3, $4, 'pending' FROM c RETURNING id`,
      [id, c.txid, c.txHex, c.refund, c.buyer, c.now],
    );
    return rows.length === 1 ? 'claimed' : 'lost';
  } catch (e) {
    if (isUniqueViolation(e)) return 'duplicate_tx';
    throw e;
  }
}

/**
 * Moves a claimed payment (status unpaid, broadcast pending) to accepted or confirmed, marks its
 * pending submission accepted and writes its events, in one statement. The event bodies are
 * built from `row` as it will be after the change; the statement applies only while the row's
 * block fields are still those of `row` (the worker may have seen the tx mined meanwhile), so a
 * body never shows stale chain data. Returns the new row, or null when nothing was changed (the
 * caller then takes the general path).
 */
export async function acceptClaimed(db: Db, row: PayRow, required: number, now: Date, publicUrl: string): Promise<PayRow | null> {
  const confirmedNow = required === 0;
  const fresh: PayRow = {
    ...row, status: confirmedNow ? 'confirmed' : 'accepted', broadcastState: 'sent', requiredConfirmations: required,
    confirmedAt: confirmedNow ? now : null, updatedAt: now,
  };
  const types: EventType[] = confirmedNow ? ['payment.accepted', 'payment.confirmed'] : ['payment.accepted'];
  const events = types.map((type) => {
    const id = 'evt_' + randomBytes(12).toString('base64url');
    return { id, type, body: JSON.stringify({ id, type, created_at: now.toISOString(), payment: vendorPaymentView(fresh, publicUrl, now) }) };
  });
  const second = events[1] ?? { id: null, type: null, body: null };
  const rows = await db.query<{ id: unknown }>(
    `WITH u AS (
       UPDATE payment SET status = $2, broadcast_state = 'sent', required_confirmations = $3, accepted_at = $4, confirmed_at = $5, updated_at = $4
        WHERE id = $1 AND status = 'unpaid' AND broadcast_state = 'pending'
          AND block_height IS NOT DISTINCT FROM $6::int AND block_hash IS NOT DISTINCT FROM $7::text
          AND confirmations = $8 AND exception IS NOT DISTINCT FROM $9::text
       RETURNING id),
     s AS (
       UPDATE payment_submission SET outcome = 'accepted' WHERE payment_id = $1 AND outcome = 'pending' AND EXISTS (SELECT 1 FROM u))
     INSERT INTO vendor_event (id, type, payment_id, body, created_at, next_attempt_at)
     SELECT e.id, e.type, u.id, e.body, $4, $4
       FROM u CROSS JOIN (VALUES (1, $10::text, $11::text, $12::text), (2, $13::text, $14::text, $15::text)) AS e(n, id, type, body)
      WHERE e.id IS NOT NULL
      ORDER BY e.n
     RETURNING payment_id AS id`,
    [
      row.id, fresh.status, required, now, fresh.confirmedAt, row.blockHeight, row.blockHash, row.confirmations, row.exception,
      events[0].id, events[0].type, events[0].body, second.id, second.type, second.body,
    ],
  );
  return rows.length > 0 ? fresh : null;
}
