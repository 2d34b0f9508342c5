// A disconnected block moves the payments it mined in the same transaction that zeroes their
// confirmations (docs/architecture.md#invariants): no reader ever sees `confirmed` with
// `confirmations < required`, the state /relay/status once answered as `confirmed, confirmed: 0`
// between the disconnect's write and the next recount. On PGlite and on a PostgreSQL server,
// where a reader on another connection polls the payment throughout. The payment is paid,
// mined and confirmed through the worker's own hooks; the database's CHECK constraint
// (prisma/migrations/20261129031000_payment_invariants) also refuses the half-done write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, openMigratedDb, migrate, loadMigrations, MIGRATIONS_DIR, type Db } from '@/lib/db';
import { REGTEST, addressToScript, toHex } from '@/lib/doge';
import type { BlockSummary, BlockTxSummary } from '@/lib/chain/backend';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import {
  dropTxs,
  markPayment,
  onBlockConnected,
  onBlockDisconnected,
  onMempoolTxs,
  paymentStatus,
  updateConfirmations,
  type SyncContext,
} from '@/lib/payments';
import { loadStatusRow } from '@/lib/relay';
import { openTestDb } from '../helpers/stores';
import { testXpub } from '../helpers/keys';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { paymentInvariantViolations } from '../helpers/payment-invariants';

const XPUB = testXpub(31);
const hex32 = () => randomBytes(32).toString('hex');
let pg: PgServer | null = null;

beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => pg?.stop());

/** A chain the test plays: heights above 500, one block per payment. */
let height = 500;
function blockOf(txs: BlockTxSummary[]): BlockSummary {
  return {
    hash: hex32(),
    prevHash: hex32(),
    height: ++height,
    time: 0,
    header: new Uint8Array(80),
    size: 0,
    txCount: txs.length,
    totalTxSize: 0,
    txs,
  };
}

/** A new payment (2 DOGE) asking `required` confirmations. */
async function newPayment(ctx: SyncContext, required: number) {
  const r = await createPayment(
    { storeId: 1, db: ctx.db, network: REGTEST, publicUrl: ctx.publicUrl, apiKeyId: null, userId: null, idempotencyKey: null },
    JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Tea', count: 1, unit: '2' }], required_confirmations: required }),
  );
  return ctx.db.prisma.payment.findUniqueOrThrow({ where: { id: (r.body as { id: string }).id } });
}

/** A plain-wallet tx paying `value` to `address`. */
const payTx = (address: string, value: bigint, signalsRbf = false): BlockTxSummary => ({
  txid: hex32(),
  inputs: [{ txid: hex32(), vout: 0 }],
  signalsRbf,
  outputs: [{ n: 0, value, script: toHex(addressToScript(address, REGTEST)) }],
});

/**
 * A payment paid by a plain-wallet tx, mined, and recounted at the tip: confirmed when
 * `required` is reached. An RBF tx is first seen in its block (as after a restart).
 */
async function minedPayment(ctx: SyncContext, required: number, rbf = false) {
  const p = await newPayment(ctx, required);
  const tx = payTx(p.address, p.total, rbf);
  if (!rbf) await onMempoolTxs(ctx, [tx]);
  const b = blockOf([tx]);
  await onBlockConnected(ctx, b);
  await updateConfirmations(ctx, b.height, b.hash);
  return { id: p.id, block: b, tx };
}

/**
 * Reads the payment in a loop until stopped, as /relay/status does (loadStatusRow, then the
 * Payment Status a wallet gets), and checks each read.
 */
function poll(db: Db, id: string, rbf: ReadonlySet<string> = new Set()) {
  let stop = false;
  let reads = 0;
  const bad: string[] = [];
  const loop = (async () => {
    while (!stop) {
      const row = (await loadStatusRow(db, id))!;
      const body = paymentStatus(row) as { status: string; confirmed?: number; required?: number };
      if (body.status === 'confirmed' && body.confirmed! < body.required!) bad.push(`/relay/status answered ${JSON.stringify(body)}`);
      bad.push(...(await paymentInvariantViolations(db, { ids: [id], rbf })));
      reads++;
    }
  })();
  return async () => {
    stop = true;
    await loop;
    return { reads, bad };
  };
}

const events = async (db: Db, id: string) =>
  (await db.query<{ type: string }>(`SELECT type FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [id])).map((e) => String(e.type));

describe.each(['pglite', 'postgresql'] as const)('a disconnected block on %s', (kind) => {
  let db: Db;
  let ctx: SyncContext;
  beforeAll(async () => {
    db =
      kind === 'pglite'
        ? await openTestDb()
        : await openMigratedDb({ databaseUrl: await createDatabase(pg!, `reorg_${process.pid}`), poolSize: 4 });
    await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
    await activeRelayKey(db, 1);
    ctx = { db, network: REGTEST, publicUrl: 'http://127.0.0.1:1' };
  }, 60_000);
  afterAll(async () => db?.close());

  it('moves a confirmed payment back to accepted in the same write as its count, while a reader polls /relay/status', async () => {
    const { id, block } = await minedPayment(ctx, 1);
    expect(paymentStatus((await loadStatusRow(db, id))!)).toMatchObject({ status: 'confirmed', confirmed: 1, required: 1 });
    const stop = poll(db, id);
    let seen: Awaited<ReturnType<typeof stop>>;
    try {
      await onBlockDisconnected(ctx, block.hash, block);
      // Before any recount: the disconnect alone moved it.
      expect(paymentStatus((await loadStatusRow(db, id))!)).toMatchObject({ status: 'accepted', confirmed: 0, required: 1 });
      expect(await events(db, id)).toEqual(['payment.accepted', 'payment.confirmed', 'payment.unconfirmed']);
      await updateConfirmations(ctx, block.height - 1, block.prevHash);
      // Mined again one block higher: confirmed again.
      const again = blockOf(block.txs);
      await onBlockConnected(ctx, again);
      await updateConfirmations(ctx, again.height, again.hash);
    } finally {
      seen = await stop();
    }
    const { reads, bad } = seen;
    expect(bad).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'confirmed',
      exception: 'reorged',
      confirmations: 1,
    });
    expect(await events(db, id)).toEqual(['payment.accepted', 'payment.confirmed', 'payment.unconfirmed', 'payment.confirmed']);
  });

  it('leaves a 0-conf payment and a merchant-settled one confirmed, at 0 confirmations', async () => {
    const zero = await minedPayment(ctx, 0);
    const settled = await minedPayment(ctx, 3);
    expect(
      await markPayment(db, { storeId: 1 }, settled.id, { as: 'settled', note: 'paid at the counter' }, 'owner@example.com', ctx.publicUrl),
    ).toMatchObject({ ok: true });
    for (const p of [settled, zero]) await onBlockDisconnected(ctx, p.block.hash, p.block);
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: zero.id } })).toMatchObject({
      status: 'confirmed',
      confirmations: 0,
      blockHash: null,
    });
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: settled.id } })).toMatchObject({
      status: 'confirmed',
      exception: 'marked_settled',
      confirmations: 0,
      blockHash: null,
    });
    expect(await paymentInvariantViolations(db)).toEqual([]);
  });

  it("a 0-conf payment whose RBF tx is unmined by a reorg goes back to accepted in the disconnect's own write, its depth raised", async () => {
    const { id, block, tx } = await minedPayment(ctx, 0, true);
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'confirmed', requiredConfirmations: 0 });
    expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: id } })).toMatchObject({ txid: tx.txid, signalsRbf: true });
    // The poll knows the tx signals RBF: no read may show the payment relying on it unmined at
    // required 0, from the disconnect on.
    const stop = poll(db, id, new Set([tx.txid]));
    let seen: Awaited<ReturnType<typeof stop>>;
    try {
      await onBlockDisconnected(ctx, block.hash, block);
      // Before the tx is seen in the mempool again: the disconnect alone moved it.
      expect(await db.prisma.payment.findUniqueOrThrow({ where: { id } })).toMatchObject({
        status: 'accepted',
        exception: 'reorged',
        requiredConfirmations: 1,
        confirmations: 0,
        blockHash: null,
      });
      await onMempoolTxs(ctx, [tx]);
    } finally {
      seen = await stop();
    }
    expect(seen.bad).toEqual([]);
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'accepted',
      exception: 'reorged',
      requiredConfirmations: 1,
      confirmations: 0,
    });
    expect(await events(db, id)).toEqual(['payment.accepted', 'payment.confirmed', 'payment.unconfirmed']);
    expect(await paymentInvariantViolations(db, { ids: [id], rbf: new Set([tx.txid]) })).toEqual([]);
  });

  describe("a tx whose parent the disconnected block held inherits the parent's RBF signal, in the disconnect's own write", () => {
    /** A parent tx (paying elsewhere) and a final child of it paying a 0-conf payment. */
    async function parentAndChild(parentRbf: boolean) {
      const p = await newPayment(ctx, 0);
      const parent: BlockTxSummary = {
        txid: hex32(),
        inputs: [{ txid: hex32(), vout: 0 }],
        signalsRbf: parentRbf,
        outputs: [{ n: 0, value: p.total * 2n, script: '51' }],
      };
      const child: BlockTxSummary = { ...payTx(p.address, p.total), inputs: [{ txid: parent.txid, vout: 0 }] };
      return { id: p.id, parent, child };
    }
    const row = (id: string) => db.prisma.payment.findUniqueOrThrow({ where: { id } });

    it.each([true, false])('both first seen in the block (parent signals: %s)', async (parentRbf) => {
      const { id, parent, child } = await parentAndChild(parentRbf);
      const b = blockOf([parent, child]);
      await onBlockConnected(ctx, b);
      await updateConfirmations(ctx, b.height, b.hash);
      expect(await row(id)).toMatchObject({ status: 'confirmed', requiredConfirmations: 0 });
      const stop = poll(db, id, new Set(parentRbf ? [child.txid] : []));
      let seen: Awaited<ReturnType<typeof stop>>;
      try {
        await onBlockDisconnected(ctx, b.hash, b);
      } finally {
        seen = await stop();
      }
      expect(seen.bad).toEqual([]);
      expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: id } })).toMatchObject({
        txid: child.txid,
        signalsRbf: parentRbf,
        blockHash: null,
      });
      // A final parent back in the mempool is no risk: the 0-conf payment stays confirmed.
      expect(await row(id)).toMatchObject(
        parentRbf
          ? { status: 'accepted', exception: 'reorged', requiredConfirmations: 1, confirmations: 0 }
          : { status: 'confirmed', requiredConfirmations: 0, confirmations: 0 },
      );
    });

    it('the child seen in the mempool after its parent was mined', async () => {
      const { id, parent, child } = await parentAndChild(true);
      const b = blockOf([parent]);
      await onBlockConnected(ctx, b);
      // The parent confirmed: the child alone is final, and gets 0-conf.
      await onMempoolTxs(ctx, [child]);
      await updateConfirmations(ctx, b.height, b.hash);
      expect(await row(id)).toMatchObject({ status: 'confirmed', requiredConfirmations: 0 });
      await onBlockDisconnected(ctx, b.hash, b);
      expect(await row(id)).toMatchObject({ status: 'accepted', exception: 'reorged', requiredConfirmations: 1 });
      expect(await paymentInvariantViolations(db, { ids: [id], rbf: new Set([child.txid]) })).toEqual([]);
    });

    it('a block the backend cannot read: each tx it unmines is taken as having a replaceable parent', async () => {
      const { id, block, tx } = await minedPayment(ctx, 0);
      await onBlockDisconnected(ctx, block.hash, null);
      expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: id } })).toMatchObject({ txid: tx.txid, signalsRbf: true });
      expect(await row(id)).toMatchObject({ status: 'accepted', exception: 'reorged', requiredConfirmations: 1 });
    });
  });

  it('a tx whose RBF signal came from an unconfirmed parent keeps it: seen again without it, the row follows', async () => {
    const p = await newPayment(ctx, 0);
    // Seen in the mempool while its unconfirmed parent signals: accepted, one confirmation needed.
    const tx = payTx(p.address, p.total, true);
    await onMempoolTxs(ctx, [tx]);
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: 'accepted',
      requiredConfirmations: 1,
    });
    // The parent mined meanwhile: seen again as final, the row records it (the depth stays raised).
    await onMempoolTxs(ctx, [{ ...tx, signalsRbf: false }]);
    expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: p.id } })).toMatchObject({ signalsRbf: false });
    await onMempoolTxs(ctx, [tx]);
    expect(await db.prisma.paymentTx.findFirstOrThrow({ where: { paymentId: p.id } })).toMatchObject({ signalsRbf: true });
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: 'accepted',
      requiredConfirmations: 1,
    });
    expect(await paymentInvariantViolations(db, { ids: [p.id], rbf: new Set([tx.txid]) })).toEqual([]);
  });

  it('a double spend mined in a block and a tx the node dropped move the payment in the transaction that records them', async () => {
    const p = await newPayment(ctx, 1);
    const half = p.total / 2n;
    const [a, b, c] = [payTx(p.address, half), payTx(p.address, p.total - half), payTx(p.address, half)];
    await onMempoolTxs(ctx, [a, b, c]);
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({ status: 'accepted', exception: 'overpaid' });
    const stop = poll(db, p.id);
    let seen: Awaited<ReturnType<typeof stop>>;
    try {
      // The node forgets c (not needed): still paid. Then a block mines a tx spending a's input.
      await dropTxs(ctx, [c.txid]);
      await onBlockConnected(ctx, blockOf([{ txid: hex32(), inputs: a.inputs, outputs: [], signalsRbf: false }]));
    } finally {
      seen = await stop();
    }
    expect(seen.bad).toEqual([]);
    expect(seen.reads).toBeGreaterThan(0);
    expect(await db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: 'declined',
      exception: 'double_spent',
      amountPaid: p.total - half,
    });
  });

  it('refuses, by the CHECK constraint, a write that would leave confirmed below its required depth', async () => {
    const { id } = await minedPayment(ctx, 1);
    await expect(db.query(`UPDATE payment SET confirmations = 0 WHERE id = $1`, [id])).rejects.toThrow(/payment_confirmed_depth/);
    await expect(db.query(`UPDATE payment SET required_confirmations = 2 WHERE id = $1`, [id])).rejects.toThrow(/payment_confirmed_depth/);
    await expect(db.query(`UPDATE payment SET amount_paid = -1 WHERE id = $1`, [id])).rejects.toThrow(/payment_amount_paid_nonnegative/);
    expect(paymentStatus((await loadStatusRow(db, id))!)).toMatchObject({ status: 'confirmed', confirmed: 1 });
  });

  it('the migration applies to a database with data, a row left half done by the older disconnect included, and the recount then mends that row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counter-invariants-'));
    const old =
      kind === 'pglite'
        ? await openDb({ dataDir: dir })
        : await openDb({ databaseUrl: await createDatabase(pg!, `reorg_old_${process.pid}`), poolSize: 2 });
    try {
      const all = loadMigrations(MIGRATIONS_DIR);
      const mine = all.findIndex((m) => m.name === '20261129031000_payment_invariants');
      expect(mine).toBeGreaterThan(0);
      // The code below writes today's columns (each tx's RBF signal, the store's): every later
      // migration is there first, and this one comes last, onto the data as it was.
      const later = all.slice(mine + 1);
      await migrate(old, [...all.slice(0, mine), ...later]);
      await old.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
      await activeRelayKey(old, 1);
      const c = { db: old, network: REGTEST, publicUrl: 'http://127.0.0.1:1' };
      const done = await minedPayment(c, 1);
      const half = await minedPayment(c, 2);
      await updateConfirmations(c, half.block.height + 1, hex32());
      // What the two-write disconnect left when the process stopped between its writes.
      await old.query(`UPDATE payment SET confirmations = 0, block_height = NULL, block_hash = NULL WHERE id = $1`, [half.id]);
      await old.query(`UPDATE payment_tx SET block_height = NULL, block_hash = NULL WHERE payment_id = $1`, [half.id]);
      expect(await migrate(old, all)).toMatchObject({ applied: ['20261129031000_payment_invariants'] });
      expect(await old.prisma.payment.findUniqueOrThrow({ where: { id: half.id } })).toMatchObject({
        status: 'confirmed',
        confirmations: 0,
      });
      // The worker's first recount reads the whole history and moves it through the table.
      await updateConfirmations(c, half.block.height + 1);
      expect(await old.prisma.payment.findUniqueOrThrow({ where: { id: half.id } })).toMatchObject({
        status: 'accepted',
        exception: 'reorged',
        confirmations: 0,
      });
      expect(await old.prisma.payment.findUniqueOrThrow({ where: { id: done.id } })).toMatchObject({ status: 'confirmed' });
      expect(await paymentInvariantViolations(old)).toEqual([]);
      await expect(old.query(`UPDATE payment SET confirmations = 0 WHERE id = $1`, [done.id])).rejects.toThrow(/payment_confirmed_depth/);
    } finally {
      await old.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
