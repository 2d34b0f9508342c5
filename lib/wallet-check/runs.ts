// Runs of the wallet check and their cases in the database (tables wallet_check_*), the per-client
// throttle on new runs, and the pruning of runs older than a day (docs/wallet-check.md#limits).
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db';
import type { Network } from '../doge';
import { buildCase, CASE_NAMES, expectOf, type CheckOutput, type Expect } from './cases';
import { checkKey } from './key';

export const RUNS_PER_MINUTE = 10;
export const KEEP_RUNS_MS = 24 * 60 * 60 * 1000;
/** User agents kept per run (the list is for reading, not for storing whatever a client sends). */
const MAX_AGENTS = 20;

export interface CheckContext {
  db: Db;
  network: Network;
  dataDir: string;
  publicUrl: string;
  /** The clock (docs/architecture.md#time); tests move it instead of sleeping. */
  now?: () => Date;
  /** How long after its envelope fetch a refuse case passes, ms (default 30 s). */
  refuseWindowMs?: number;
}

export const nowOf = (ctx: Pick<CheckContext, 'now'>) => ctx.now?.() ?? new Date();

export interface CaseRow {
  id: string;
  runId: string;
  position: number;
  name: string;
  expect: Expect;
  address: string;
  uri: string;
  envelope: string;
  outputs: CheckOutput[];
  feePerKb: bigint;
  maxSize: number;
  expiresAt: Date;
  fetchedAt: Date | null;
  result: 'pending' | 'pass' | 'fail';
  detail: string;
  txid: string | null;
  finishedAt: Date | null;
}

const newId = (prefix: string) => prefix + randomBytes(16).toString('base64url');
const clientKey = (address: string) =>
  createHash('sha256')
    .update('wallet-check ' + address)
    .digest('hex')
    .slice(0, 32);

export type CreateResult = { ok: true; runId: string } | { ok: false; retryAfterSec: number };

/**
 * Counts the run against its client (at most RUNS_PER_MINUTE a minute) and inserts it, in one
 * transaction that first takes the client's advisory lock: two requests of a burst count one
 * after the other, so the limit holds across connections and processes on PostgreSQL
 * (docs/wallet-check.md#limits). The insert's own statement then sees every run committed before.
 */
async function insertRun(ctx: CheckContext, client: string, now: Date): Promise<CreateResult> {
  const runId = newId('wcr_');
  const since = new Date(now.getTime() - 60_000);
  const rows = await ctx.db.prisma.$transaction(
    async (t) => {
      await t.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('wallet-check run ' || $1::text))::text`, client);
      return t.$queryRawUnsafe<{ id: string }[]>(
        `INSERT INTO wallet_check_run (id, client_key, created_at)
       SELECT $1, $2, $3::timestamptz WHERE (SELECT count(*) FROM wallet_check_run WHERE client_key = $2 AND created_at > $4::timestamptz) < ${RUNS_PER_MINUTE}
       RETURNING id`,
        runId,
        client,
        now,
        since,
      );
    },
    { maxWait: 15_000, timeout: 15_000 },
  ); // a burst queues on the lock, each holder is brief
  if (rows.length) return { ok: true, runId };
  const oldest = await ctx.db.query<{ created_at: Date }>(
    `SELECT created_at FROM wallet_check_run WHERE client_key = $1 AND created_at > $2 ORDER BY created_at DESC OFFSET ${RUNS_PER_MINUTE - 1} LIMIT 1`,
    [client, since],
  );
  const frees = oldest[0] ? new Date(oldest[0].created_at).getTime() + 60_000 : now.getTime() + 1000;
  return { ok: false, retryAfterSec: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)) };
}

/** Starts a run for a client (its address): the run id, or how long the client must wait. */
export async function createRun(ctx: CheckContext, clientAddress: string): Promise<CreateResult> {
  const now = nowOf(ctx);
  await ctx.db.query(`DELETE FROM wallet_check_run WHERE created_at < $1`, [new Date(now.getTime() - KEEP_RUNS_MS)]);
  const made = await insertRun(ctx, clientKey(clientAddress), now);
  if (!made.ok) return made;
  const key = checkKey(ctx.dataDir, ctx.network);
  for (const [position, name] of CASE_NAMES.entries()) {
    const [{ idx }] = await ctx.db.query<{ idx: string }>(`SELECT nextval('wallet_check_address_seq') AS idx`);
    const id = newId('wc_');
    const address = key.addressAt(Number(idx));
    const c = buildCase({ id, name, address, key, publicUrl: ctx.publicUrl, now });
    const outputs = c.outputs.map((o) => ({ ...o, amount: o.amount === null ? null : o.amount.toString() }));
    await ctx.db.query(
      `INSERT INTO wallet_check_case (id, run_id, position, name, expect, address, addr_index, uri, envelope, outputs, fee_per_kb, max_size, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13)`,
      [
        id,
        made.runId,
        position,
        name,
        expectOf(name),
        address,
        Number(idx),
        c.uri,
        c.envelope,
        JSON.stringify(outputs),
        c.feePerKb.toString(),
        c.maxSize,
        c.expiresAt,
      ],
    );
  }
  return made;
}

type RawCase = Record<string, unknown>;
const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

function toCase(r: RawCase): CaseRow {
  const outputs = (typeof r.outputs === 'string' ? JSON.parse(r.outputs) : r.outputs) as {
    type: 'p2pkh' | 'data';
    address: string | null;
    amount: string | null;
    data: string | null;
  }[];
  return {
    id: String(r.id),
    runId: String(r.run_id),
    position: Number(r.position),
    name: String(r.name),
    expect: r.expect as Expect,
    address: String(r.address),
    uri: String(r.uri),
    envelope: String(r.envelope),
    outputs: outputs.map((o) => ({ ...o, amount: o.amount === null ? null : BigInt(o.amount) })),
    feePerKb: BigInt(r.fee_per_kb as string),
    maxSize: Number(r.max_size),
    expiresAt: date(r.expires_at)!,
    fetchedAt: date(r.fetched_at),
    result: r.result as CaseRow['result'],
    detail: String(r.detail),
    txid: (r.txid as string | null) ?? null,
    finishedAt: date(r.finished_at),
  };
}

const CASE_SELECT = `SELECT c.*, r.finished_at FROM wallet_check_case c JOIN wallet_check_run r ON r.id = c.run_id`;

export async function loadCase(db: Db, id: string): Promise<CaseRow | null> {
  if (!/^wc_[A-Za-z0-9_-]{1,40}$/.test(id)) return null;
  const rows = await db.query<RawCase>(`${CASE_SELECT} WHERE c.id = $1`, [id]);
  return rows[0] ? toCase(rows[0]) : null;
}

export async function loadRunCases(db: Db, runId: string): Promise<CaseRow[]> {
  const rows = await db.query<RawCase>(`${CASE_SELECT} WHERE c.run_id = $1 ORDER BY c.position`, [runId]);
  return rows.map(toCase);
}

/** Pending cases paid to any of these addresses, in runs not yet finished. */
export async function pendingCasesPaying(db: Db, addresses: string[]): Promise<CaseRow[]> {
  if (!addresses.length) return [];
  const rows = await db.query<RawCase>(
    `${CASE_SELECT} WHERE c.address = ANY($1::text[]) AND c.result = 'pending' AND r.finished_at IS NULL`,
    [addresses],
  );
  return rows.map(toCase);
}

/** Whether any case anywhere waits for a decision (the chain watch does nothing otherwise). */
export async function anyPending(db: Db): Promise<boolean> {
  return (await db.query(`SELECT 1 FROM wallet_check_case WHERE result = 'pending' LIMIT 1`)).length > 0;
}

/** Decides a pending case; a decided case keeps its first decision. True when this call decided it. */
export async function decideCase(db: Db, id: string, result: 'pass' | 'fail', detail: string, now: Date, txid?: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE wallet_check_case SET result = $2, detail = $3, decided_at = $4, txid = COALESCE($5, txid) WHERE id = $1 AND result = 'pending' RETURNING id`,
    [id, result, detail, now, txid ?? null],
  );
  return rows.length > 0;
}

/** Notes the tx the relay is about to broadcast for a pay case, so the chain watch knows it came through the relay. */
export async function noteRelayTx(db: Db, id: string, txid: string | null): Promise<void> {
  await db.query(`UPDATE wallet_check_case SET txid = $2 WHERE id = $1 AND result = 'pending'`, [id, txid]);
}

/** Marks the envelope fetched (the first fetch counts) and answers its bytes, or null for an unknown id. */
export async function fetchEnvelope(db: Db, id: string, now: Date): Promise<{ envelope: string; runId: string } | null> {
  if (!/^wc_[A-Za-z0-9_-]{1,40}$/.test(id)) return null;
  const rows = await db.query<{ envelope: string; run_id: string }>(
    `UPDATE wallet_check_case SET fetched_at = COALESCE(fetched_at, $2) WHERE id = $1 RETURNING envelope, run_id`,
    [id, now],
  );
  return rows[0] ? { envelope: rows[0].envelope, runId: rows[0].run_id } : null;
}

/** Records a user agent of a request made for the run (printable ASCII, at most 200 characters). */
export async function recordAgent(db: Db, runId: string, userAgent: string | null, now: Date): Promise<void> {
  const ua =
    (userAgent ?? '')
      .replace(/[^\x20-\x7e]/g, '')
      .slice(0, 200)
      .trim() || '(none)';
  await db.query(
    `INSERT INTO wallet_check_agent (run_id, user_agent, seen_at)
     SELECT $1, $2, $3 WHERE (SELECT count(*) FROM wallet_check_agent WHERE run_id = $1) < ${MAX_AGENTS}
     ON CONFLICT DO NOTHING`,
    [runId, ua, now],
  );
}

export async function loadRun(
  db: Db,
  runId: string,
): Promise<{ id: string; createdAt: Date; finishedAt: Date | null; userAgents: string[] } | null> {
  if (!/^wcr_[A-Za-z0-9_-]{1,40}$/.test(runId)) return null;
  const rows = await db.query<{ id: string; created_at: Date; finished_at: Date | null }>(
    `SELECT id, created_at, finished_at FROM wallet_check_run WHERE id = $1`,
    [runId],
  );
  if (!rows[0]) return null;
  const agents = await db.query<{ user_agent: string }>(
    `SELECT user_agent FROM wallet_check_agent WHERE run_id = $1 ORDER BY seen_at, user_agent`,
    [runId],
  );
  return {
    id: rows[0].id,
    createdAt: new Date(rows[0].created_at),
    finishedAt: date(rows[0].finished_at),
    userAgents: agents.map((a) => a.user_agent),
  };
}

export async function markFinished(db: Db, runId: string, now: Date): Promise<void> {
  await db.query(`UPDATE wallet_check_run SET finished_at = COALESCE(finished_at, $2) WHERE id = $1`, [runId, now]);
}
