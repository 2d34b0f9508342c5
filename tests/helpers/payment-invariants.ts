// The payment table's invariants (docs/architecture.md#invariants), checked on every payment row
// of a database as any reader could see it: after each step of the model-based test, and on the
// polling reads of the reorg tests.
//
// - `confirmed` means `confirmations >= required` (a merchant's "Mark settled" aside: the
//   merchant decided, the chain did not);
// - a paid payment that relies on an unmined tx signalling replace-by-fee never holds `required` 0
//   (the test says which txids signal it, independent of what payment_tx recorded);
// - `amount_paid` is the sum of the outputs to its address over the txs it counts (its
//   payment_tx rows that no mined tx conflicted), and counts are never negative.
import { expect } from 'vitest';
import type { Db } from '@/lib/db';

export interface InvariantOptions {
  /** Txids that signal replace-by-fee (BIP125), as the test built them. */
  rbf?: ReadonlySet<string>;
  /** Only these payments (default: every row). */
  ids?: readonly string[];
}

interface Row {
  id: string;
  status: string;
  exception: string | null;
  total: string;
  amount_paid: string;
  confirmations: number;
  required_confirmations: number;
  txs: { txid: string; value: string; mined: boolean; conflicted: boolean; commits_data: boolean }[] | null;
}

/** The rules a row breaks, one line each (empty when it keeps them all). */
export function rowViolations(r: Row, rbf: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const at = `payment ${r.id} (${r.status}/${r.exception ?? '-'})`;
  const conf = Number(r.confirmations);
  const required = Number(r.required_confirmations);
  if (r.status === 'confirmed' && r.exception !== 'marked_settled' && conf < required) {
    out.push(`${at}: confirmed with ${conf} confirmations < required ${required}`);
  }
  if (conf < 0 || required < 0 || BigInt(r.amount_paid) < 0n) out.push(`${at}: a negative count (${conf}, ${required}, ${r.amount_paid})`);
  const live = (r.txs ?? []).filter((t) => !t.conflicted);
  const sum = live.reduce((s, t) => s + BigInt(t.value), 0n);
  if (sum !== BigInt(r.amount_paid)) out.push(`${at}: amount_paid ${r.amount_paid} but its counted txs sum to ${sum}`);
  // What it relies on: the txs carrying its data outputs, in the order seen, up to the total.
  if ((r.status === 'accepted' || r.status === 'confirmed') && r.exception !== 'marked_settled') {
    let acc = 0n;
    for (const t of live.filter((x) => x.commits_data)) {
      if (acc >= BigInt(r.total)) break;
      acc += BigInt(t.value);
      if (!t.mined && rbf.has(t.txid) && required === 0) out.push(`${at}: relies on unmined RBF tx ${t.txid} with required 0`);
    }
  }
  return out;
}

/** Every violation in the database (or among `ids`), as a reader sees it now. */
export async function paymentInvariantViolations(db: Db, o: InvariantOptions = {}): Promise<string[]> {
  const rows = await db.query<Row>(
    `SELECT p.id, p.status, p.exception, p.total::text AS total, p.amount_paid::text AS amount_paid, p.confirmations, p.required_confirmations,
            (SELECT json_agg(json_build_object('txid', t.txid, 'value', t.value::text, 'mined', t.block_height IS NOT NULL,
                    'conflicted', t.conflicted_by IS NOT NULL, 'commits_data', t.commits_data) ORDER BY t.seq)
               FROM payment_tx t WHERE t.payment_id = p.id) AS txs
       FROM payment p ${o.ids ? 'WHERE p.id = ANY($1::text[])' : ''}`,
    o.ids ? [o.ids] : [],
  );
  const rbf = o.rbf ?? new Set<string>();
  return rows.flatMap((r) => rowViolations(r, rbf));
}

/** Fails the test with every violated rule. */
export async function assertPaymentInvariants(db: Db, o: InvariantOptions = {}): Promise<void> {
  expect(await paymentInvariantViolations(db, o)).toEqual([]);
}
