// The read paths wallets poll (/relay/status, /dc/<id>) in plain SQL. Through the ORM a
// single-row lookup costs ~4.4 ms on PGlite against ~0.85 ms for the same query sent directly
// (measured with the benchmark suite's profile, docs/performance.md), which capped /relay/status far
// below the framework floor. The lookups that arrive in one event-loop turn share one
// `WHERE id = ANY($1)` query (lib/db/batch-loader.ts): on PGlite nearly all of a lookup's
// cost is per statement, and under load a turn holds tens of lookups. Nothing is kept in
// process memory between requests: several web processes may share one PostgreSQL, and a
// payment's status changes under them.
import { type Db, BatchLoader, rowsById, textKey, perDb } from '../db';
import type { PaymentRow } from '../payments';

export type StatusRow = Pick<PaymentRow, 'id' | 'status' | 'txid' | 'requiredConfirmations' | 'confirmations' | 'confirmedAt' | 'reason'>;

type Raw = Record<string, unknown>;

const toDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

const STATUS_COLUMNS = 'id, status, txid, required_confirmations, confirmations, confirmed_at, reason';

/** A fresh object per caller: callers of one id in one batch never share a row object. */
function toStatusRow(r: Raw): StatusRow {
  return {
    id: String(r.id),
    status: String(r.status),
    txid: r.txid === null ? null : String(r.txid),
    requiredConfirmations: Number(r.required_confirmations),
    confirmations: Number(r.confirmations),
    confirmedAt: toDate(r.confirmed_at),
    reason: String(r.reason ?? ''),
  };
}

interface Loaders {
  status: BatchLoader<Raw>;
  envelope: BatchLoader<string>;
}

// A cash sale (docs/counter.md#cash) has no envelope and no wallet-facing state: wallets never
// see it, so both reads skip it and /dc and /relay/status answer 404 for its id.
const WALLET_FACING = `tender = 'doge'`;

const loadersFor = perDb((db): Loaders => ({
  status: new BatchLoader(async (ids) =>
    rowsById(await db.query<Raw>(`SELECT ${STATUS_COLUMNS} FROM payment WHERE id = ANY($1::text[]) AND ${WALLET_FACING}`, [ids]), (r) => r),
  ),
  envelope: new BatchLoader(async (ids) =>
    rowsById(
      await db.query<Raw>(`SELECT id, envelope FROM payment WHERE id = ANY($1::text[]) AND ${WALLET_FACING}`, [ids]),
      (r) => r.envelope as string,
    ),
  ),
}));

export async function loadStatusRow(db: Db, id: string): Promise<StatusRow | null> {
  const key = textKey(id);
  if (key === null) return null;
  const r = await loadersFor(db).status.load(key);
  return r ? toStatusRow(r) : null;
}

/** The stored, signed Connect Envelope of a payment, or null. */
export async function loadEnvelope(db: Db, id: string): Promise<string | null> {
  const key = textKey(id);
  if (key === null) return null;
  return (await loadersFor(db).envelope.load(key)) ?? null; // envelope is NOT NULL
}
