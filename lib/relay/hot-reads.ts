// The read paths wallets poll (/relay/status, /dc/<id>) in plain SQL. Through the ORM a
// single-row lookup costs ~4.4 ms on PGlite against ~0.85 ms for the same query sent directly
// (measured with the benchmark suite's profile, bench/README), which capped /relay/status far
// below the framework floor.
import type { Db } from '../db/client';
import type { PaymentRow } from './payment-view';

export type StatusRow = Pick<PaymentRow, 'id' | 'status' | 'txid' | 'requiredConfirmations' | 'confirmations' | 'confirmedAt' | 'reason'>;

const toDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

export async function loadStatusRow(db: Db, id: string): Promise<StatusRow | null> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT id, status, txid, required_confirmations, confirmations, confirmed_at, reason FROM payment WHERE id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: String(r.id), status: String(r.status), txid: r.txid === null ? null : String(r.txid),
    requiredConfirmations: Number(r.required_confirmations), confirmations: Number(r.confirmations),
    confirmedAt: toDate(r.confirmed_at), reason: String(r.reason ?? ''),
  };
}

/** The stored, signed Connect Envelope of a payment, or null. */
export async function loadEnvelope(db: Db, id: string): Promise<string | null> {
  const rows = await db.query<{ envelope: string }>(`SELECT envelope FROM payment WHERE id = $1`, [id]);
  return rows[0]?.envelope ?? null;
}
