// The /pay acceptance (table rows pay.accept and pay.accept_zero_conf), the one way a claimed
// payment is accepted. Usually one batched SQL statement: the relay's hot path. The target status, exception and events come from the table
// (transition.ts `transition`), computed in memory; the statement writes them, the submission's
// outcome, the tx the payment now counts (payment_tx) and the vendor events at once. The
// acceptances of one event-loop turn share one statement (on PGlite the cost is per statement).
import { type Db, ItemFailure, TurnBatcher, perDb } from '../db';
import { isDeadlock, oneByOne } from './batch-retry';
import type { PayRow } from './pay-sql';
import type { EventType } from './events';
import { applyTransition, eventRow, eventRows, stateColumns } from './apply';
import { transition } from './transition';
import { TAKE_SALE_CTES } from '../stock';
import type { PaymentRow } from './view';

/** What the submitted tx pays to the payment's address, and the outpoints it spends ("txid:vout"). */
export interface PaidByTx {
  value: bigint;
  inputs: string[];
}

interface AcceptItem {
  row: PayRow;
  fresh: PayRow;
  now: Date;
  paid: PaidByTx;
  /** The tx signals replace-by-fee (itself or an unconfirmed ancestor): its payment_tx row keeps it. */
  rbf: boolean;
  events: { id: string; type: EventType; body: string }[];
}

// The state change is guarded by the claimed txid (a claim the network refused is released and
// may be taken by another tx), by the block fields, exception and amount each body was built
// from (the worker may have seen the tx mined, or another tx pay the address, meanwhile).
// Every row written here carries its payment's store_id, and stock is taken from that store's
// products (SKUs repeat across stores).
// Events are inserted in item order, each payment's in its own order (their seq is the cursor).
// The sale's stock (table rows pay.accept*: `stock: take`) is taken in the same statement, by
// lib/stock's own CTEs, so a payment is never accepted without it, nor it without the payment.
// `i` holds the acceptances, one row each; `p.id = ANY($1)` makes the primary key the way in.
const ACCEPT_BODY = `
  u AS (
    UPDATE payment p SET status = i.status, broadcast_state = 'sent', required_confirmations = i.required, accepted_at = i.at::timestamptz,
           confirmed_at = i.confirmed_at::timestamptz, updated_at = i.at::timestamptz, exception = i.new_exception,
           amount_paid = p.amount_paid + i.value, paid_txids = array_append(p.paid_txids, i.txid)
      FROM i
     WHERE p.id = ANY($1::text[]) AND p.id = i.id AND p.status = 'unpaid' AND p.broadcast_state = 'pending' AND p.txid = i.txid
       AND p.block_height IS NOT DISTINCT FROM i.block_height AND p.block_hash IS NOT DISTINCT FROM i.block_hash
       AND p.confirmations = i.confirmations AND p.exception IS NOT DISTINCT FROM i.exception AND p.amount_paid = i.prev_paid
    RETURNING p.id, p.store_id, i.at, i.txid, i.value, i.inputs, i.rbf, p.block_height, p.block_hash, p.created_by),
  sx AS (SELECT id, store_id, at, created_by AS user_id FROM u),
  ${TAKE_SALE_CTES},
  s AS (
    UPDATE payment_submission s SET outcome = 'accepted' FROM u WHERE s.payment_id = u.id AND s.outcome = 'pending'),
  t AS (
    INSERT INTO payment_tx (store_id, payment_id, txid, value, inputs, seen_at, block_height, block_hash, signals_rbf)
    SELECT u.store_id, u.id, u.txid, u.value, string_to_array(u.inputs, ','), u.at::timestamptz, u.block_height, u.block_hash, u.rbf FROM u
    ON CONFLICT (payment_id, txid) DO NOTHING)
  INSERT INTO vendor_event (store_id, id, type, payment_id, body, created_at, next_attempt_at)
  SELECT u.store_id, e.id, e.type, u.id, e.body, u.at::timestamptz, u.at::timestamptz
    FROM unnest($10::text[], $11::text[], $12::text[], $13::text[]) WITH ORDINALITY AS e(payment_id, id, type, body, n)
    JOIN u ON u.id = e.payment_id
   ORDER BY e.n
  RETURNING payment_id AS id`;

// A batch: the columns as arrays, one element per acceptance.
const ACCEPT_SQL = `
  WITH i AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::text[], $8::int[], $9::text[], $14::text[],
                         $15::text[], $16::bigint[], $17::bigint[], $18::text[], $19::boolean[])
      AS i(id, status, required, at, confirmed_at, block_height, block_hash, confirmations, exception, txid, new_exception, prev_paid, value, inputs, rbf)),
  ${ACCEPT_BODY}`;

// The same statement for one acceptance (the usual case outside rushes), with the same arrays of
// one: their first elements as a one-row `i`, which plans as plain parameters, not a function scan.
const ACCEPT_ONE_SQL = `
  WITH i AS (
    SELECT ($1::text[])[1] AS id, ($2::text[])[1] AS status, ($3::int[])[1] AS required, ($4::text[])[1] AS at,
           ($5::text[])[1] AS confirmed_at, ($6::int[])[1] AS block_height, ($7::text[])[1] AS block_hash, ($8::int[])[1] AS confirmations,
           ($9::text[])[1] AS exception, ($14::text[])[1] AS txid, ($15::text[])[1] AS new_exception, ($16::bigint[])[1] AS prev_paid,
           ($17::bigint[])[1] AS value, ($18::text[])[1] AS inputs, ($19::boolean[])[1] AS rbf),
  ${ACCEPT_BODY}`;

function acceptStatement(items: AcceptItem[]): [string, unknown[]] {
  const col = <T>(f: (a: AcceptItem) => T) => items.map(f);
  const events = items.flatMap((a) => a.events.map((e) => ({ ...e, paymentId: a.row.id })));
  return [
    items.length === 1 ? ACCEPT_ONE_SQL : ACCEPT_SQL,
    [
      col((a) => a.row.id),
      col((a) => a.fresh.status),
      col((a) => a.fresh.requiredConfirmations),
      col((a) => a.now.toISOString()),
      col((a) => a.fresh.confirmedAt?.toISOString() ?? null),
      col((a) => a.row.blockHeight),
      col((a) => a.row.blockHash),
      col((a) => a.row.confirmations),
      col((a) => a.row.exception),
      events.map((e) => e.paymentId),
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => e.body),
      col((a) => a.row.txid),
      col((a) => a.fresh.exception),
      col((a) => String(a.row.amountPaid ?? 0n)),
      col((a) => String(a.paid.value)),
      col((a) => a.paid.inputs.join(',')),
      col((a) => a.rbf),
    ],
  ];
}

async function acceptBatch(db: Db, items: AcceptItem[]): Promise<(boolean | ItemFailure)[]> {
  let rows: { id: unknown }[];
  try {
    rows = await db.query<{ id: unknown }>(...acceptStatement(items));
  } catch (e) {
    if (isDeadlock(e) && items.length > 1) return oneByOne(items, (b) => acceptBatch(db, b));
    throw e;
  }
  const accepted = new Set(rows.map((r) => String(r.id)));
  return items.map((a) => accepted.has(a.row.id));
}

const batcherFor = perDb((db) => new TurnBatcher((items: AcceptItem[]) => acceptBatch(db, items), { keys: (a) => ['id:' + a.row.id] }));

/**
 * The row a /pay acceptance leads to, by the table: status (accepted, or confirmed at once when
 * the risk policy allows 0-conf and the tx does not signal replace-by-fee), exception (from the
 * amounts now paid), the depth now required, events. The columns are the ones applyTransition
 * writes for the same outcome (stateColumns).
 */
export function acceptedRow(row: PayRow, now: Date, paid: PaidByTx, rbf: boolean): { fresh: PayRow; events: EventType[] } {
  const before = row.amountPaid ?? 0n;
  const amounts = { total: row.total, paid: before + paid.value, before };
  const o = transition(row.status, row.exception, 'relay.accept', { required: row.requiredConfirmations, rbf, amounts });
  const c = stateColumns(row.status, o, now);
  const fresh: PayRow = {
    ...row,
    status: c.status,
    exception: c.exception,
    broadcastState: c.broadcastState!,
    requiredConfirmations: c.requiredConfirmations!,
    confirmedAt: c.confirmedAt ?? null,
    updatedAt: now,
    amountPaid: amounts.paid,
    paidTxids: [...(row.paidTxids ?? []), row.txid ?? ''],
  };
  return { fresh, events: o.events };
}

/**
 * The general path: the row changed since the submission read it (the tx was seen in a block,
 * another tx paid the address...). The same table row, decided on the row as it now stands.
 */
async function acceptChanged(db: Db, row: PayRow, now: Date, publicUrl: string, paid: PaidByTx, rbf: boolean): Promise<PaymentRow | null> {
  const txid = row.txid ?? '';
  return db.prisma.$transaction(async (t) => {
    const cur = await t.payment.findUnique({ where: { id: row.id } });
    if (!cur || cur.status !== 'unpaid' || cur.broadcastState !== 'pending' || cur.txid !== row.txid) return null;
    const before = cur.amountPaid;
    const known = cur.paidTxids.includes(txid);
    const amounts = { total: cur.total, paid: known ? before : before + paid.value, before };
    const applied = await applyTransition(t, {
      row: cur,
      trigger: 'relay.accept',
      facts: { required: cur.requiredConfirmations, rbf, amounts },
      data: { amountPaid: amounts.paid, ...(known ? {} : { paidTxids: { push: txid } }) },
      guard: { txid: row.txid },
      publicUrl,
      now,
    });
    if (!applied) return null;
    if (!known) {
      await t.paymentTx.create({
        data: {
          storeId: cur.storeId,
          paymentId: row.id,
          txid,
          value: paid.value,
          inputs: paid.inputs,
          seenAt: now,
          blockHeight: cur.blockHeight,
          blockHash: cur.blockHash,
          signalsRbf: rbf,
        },
      });
    }
    await t.paymentSubmission.updateMany({
      where: { paymentId: row.id, outcome: 'pending', txid: row.txid },
      data: { outcome: 'accepted' },
    });
    return applied.row;
  });
}

/**
 * Moves a claimed payment (status unpaid, broadcast pending) to accepted or confirmed, marks its
 * pending submission accepted, records the tx it counts and writes its events. Usually in one
 * statement (shared with the other acceptances of this turn), which applies only while the row
 * is still as `row` shows it, so a body never shows stale data; when the row changed meanwhile,
 * in a transaction on the row as it now stands. Returns the new row, or null when the claim is
 * no longer held (another writer decided the payment).
 */
export async function acceptClaimed(
  db: Db,
  row: PayRow,
  now: Date,
  publicUrl: string,
  paid: PaidByTx,
  rbf: boolean,
): Promise<PaymentRow | null> {
  const { fresh, events: types } = acceptedRow(row, now, paid, rbf);
  const events = eventRows(await eventRow(db.prisma, fresh, row.amountPaid ?? 0n), types, publicUrl, now);
  if (await batcherFor(db).submit({ row, fresh, now, paid, rbf, events })) return fresh;
  return acceptChanged(db, row, now, publicUrl, paid, rbf);
}
