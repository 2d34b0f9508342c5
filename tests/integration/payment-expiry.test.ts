// Expiry through the state table (row timer.expired) on a real PGlite: payment.expired is emitted
// once, and "once" is the row's own fact (expired_at), not a count of its vendor_event rows. The
// till's word for a sale past its deadline comes from lib/payments (tillState): a declined sale
// stays declined.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { MAINNET } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { cancelPayment, claimPayment, expirePayments, tillState, vendorPaymentView } from '@/lib/payments';
import { tillState as saleState } from '@/lib/payments';
import { DGUB } from '../helpers/keys';

const URL_BASE = 'http://127.0.0.1:1';
let db: Db;

/** A payment issued `agoSec` seconds ago with a 60 s timeout. */
async function issued(agoSec: number): Promise<string> {
  const r = await createPayment(
    { storeId: 1, db, network: MAINNET, publicUrl: URL_BASE, now: new Date(Date.now() - agoSec * 1000) },
    JSON.stringify({ items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }], timeout: 60 }),
  );
  expect(r.status).toBe(201);
  return (r.body as { id: string }).id;
}
const events = async (id: string) =>
  (await db.query<{ type: string }>(`SELECT type FROM vendor_event WHERE payment_id = $1 ORDER BY seq`, [id])).map((e) => e.type);
const row = (id: string) => db.prisma.payment.findUniqueOrThrow({ where: { id } });
const sync = () => ({ db, network: MAINNET, publicUrl: URL_BASE });

beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
});
afterAll(async () => {
  await db?.close();
});

describe('expiry (table row timer.expired)', () => {
  it('emits payment.expired once; a later scan finds nothing, even with the event row gone', async () => {
    const id = await issued(120);
    const fresh = await issued(0);
    expect(await expirePayments(sync())).toBe(1);
    expect(await events(id)).toEqual(['payment.expired']);
    expect((await row(id)).expiredAt).toBeInstanceOf(Date);
    expect((await row(fresh)).expiredAt).toBeNull();
    expect(await expirePayments(sync())).toBe(0);
    // Once is the row's fact: the outbox row delivered and pruned does not make it expire again.
    await db.prisma.$executeRawUnsafe(`DELETE FROM vendor_event WHERE payment_id = $1`, id);
    expect(await expirePayments(sync())).toBe(0);
    expect(await events(id)).toEqual([]);
    expect((await row(id)).status).toBe('unpaid'); // still payable: late money counts
  });

  it('a claimed payment (a /pay broadcast in flight) is not expired, nor a cancelled one', async () => {
    const claimed = await issued(120);
    expect(await claimPayment(db, claimed, { txid: 'ab'.repeat(32), txHex: '00', refund: '', buyer: '', now: new Date() })).toBe('claimed');
    const cancelled = await issued(0);
    expect(await cancelPayment(db, { storeId: 1, ownSalesOf: null }, cancelled, URL_BASE)).toBe('cancelled');
    await expirePayments(sync());
    expect(await events(claimed)).toEqual([]);
    expect(await events(cancelled)).toEqual(['payment.declined']);
  });

  it('the till: a declined sale past its deadline stays declined (it showed Declined, then Expired)', async () => {
    const id = await issued(0);
    expect(await cancelPayment(db, { storeId: 1, ownSalesOf: null }, id, URL_BASE)).toBe('cancelled');
    // Marked invalid would be "declined"; here the vendor cancelled: "cancelled", before and after the deadline.
    const later = new Date(Date.now() + 3600_000);
    const r = await row(id);
    expect(tillState(r, new Date())).toBe('cancelled');
    expect(tillState(r, later)).toBe('cancelled');
    expect(saleState(r, later)).toBe('cancelled');
    expect(tillState({ ...r, exception: 'marked_invalid' }, later)).toBe('declined');
    // The vendor API keeps its `expired` field as it was (past the deadline, unpaid or declined).
    expect(vendorPaymentView(r, URL_BASE, later)).toMatchObject({ status: 'declined', expired: true });
  });
});
