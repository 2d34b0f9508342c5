// Three days of a shop's sales around the Europe/Berlin clock change (2026-10-24 to 10-27), made
// as the till makes them: 320 payments through createPayment from seeded-random carts of five
// products (items with tax, fees, shipping, discounts, tips, fiat), by three cashiers, a manager
// and an API key, then put in every state the relay, the worker and the merchant's mark leave
// (docs/api.md#payments-from-any-wallet), some of the paid ones refunded (docs/api.md#refunds).
// The sales report test reconciles its report with what this put in.
import { expect } from 'vitest';
import type { Db } from '@/lib/db';
import { MAINNET } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { createUser, createApiKey } from '@/lib/auth';
import { paymentBody, type CartLine } from '@/lib/pos/cart';
import { parseKoinu, formatKoinu } from '@/lib/money';
import { createRefund } from '@/lib/refunds/create-refund';
import { DGUB } from './keys';

/** A small deterministic PRNG, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const PRODUCTS = [
  { sku: 'COF', name: 'Coffee', unit: 250_000_000n, taxRateBp: 700 },
  { sku: 'TEA', name: 'Tea', unit: 180_000_000n, taxRateBp: 700 },
  { sku: 'CAKE', name: 'Cake', unit: 425_000_000n, taxRateBp: 1900 },
  { sku: 'MUG', name: 'Mug', unit: 1_999_999_999n, taxRateBp: 1900 },
  { sku: 'EVIL', name: '=HYPERLINK("http://x.test","click")', unit: 100_000_001n, taxRateBp: 0 },
];

/** One seeded payment: its state, who made it, when, and what it holds. */
export interface SeededSale {
  id: string;
  status: string;
  exception: string | null;
  creator: string;
  createdAt: Date;
  body: ReturnType<typeof paymentBody>;
  total: bigint;
  taxes: bigint;
  fees: bigint;
}

/** One refund of a seeded sale and its fate (only a refund confirmed in the period counts). */
export interface SeededRefund {
  of: string;
  amount: bigint;
  status: string;
  confirmedAt: Date | null;
}

/**
 * Seeds store 1 of `db` (its xpub, relay key, users and key, then the sales); `urlBase` is the
 * payments' public URL, `customer` the address the refunds go to.
 */
export async function seedSales(
  db: Db,
  { urlBase, customer }: { urlBase: string; customer: string },
): Promise<{ seeded: SeededSale[]; refunds: SeededRefund[]; cashiers: string[] }> {
  const seeded: SeededSale[] = [];
  const refunds: SeededRefund[] = [];
  const cashiers: string[] = [];
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: DGUB }, create: { id: 1, storeXpub: DGUB } });
  await activeRelayKey(db, 1);
  // The seeding below writes the amounts' exceptions (underpaid, marked_settled, …) straight into
  // the table. The migrations' check admits them now (prisma/migrations/20261124030000_any_wallet);
  // lifting it keeps this test independent of that list.
  await db.prisma.$executeRawUnsafe(`ALTER TABLE "payment" DROP CONSTRAINT IF EXISTS "payment_exception_check"`);
  const pw = 'long enough password 1';
  for (const n of ['ana', 'bo', 'cy'])
    cashiers.push((await createUser(db, { storeId: 1, email: `${n}@shop.test`, name: n.toUpperCase(), password: pw, role: 'cashier' })).id);
  const managerId = (await createUser(db, { storeId: 1, email: 'mo@shop.test', name: 'Mo', password: pw, role: 'manager' })).id;
  const keyId = (await createApiKey(db, { storeId: 1, name: 'webshop', scopes: ['payments:write'] })).id;

  const r = rng(42);
  // 2026-10-24 00:00 Berlin (CEST) .. 2026-10-27 00:00 (CET): 73 hours; a few before and after.
  const start = Date.parse('2026-10-23T20:00:00Z');
  const span = Date.parse('2026-10-27T01:00:00Z') - start;
  const creators = [
    ...cashiers.map((c) => ({ userId: c, apiKeyId: null })),
    { userId: managerId, apiKeyId: null },
    { userId: null, apiKeyId: keyId },
  ];
  const kinds = ['unpaid', 'underpaid', 'accepted', 'confirmed', 'confirmed', 'confirmed', 'settled', 'declined', 'expired'];
  for (let i = 0; i < 320; i++) {
    const lines: CartLine[] = [];
    for (let j = 0, n = 1 + r(3); j < n; j++) {
      const p = PRODUCTS[r(PRODUCTS.length)];
      lines.push({ key: `${p.sku}-${j}`, sku: p.sku, name: p.name, unit: p.unit, count: 1 + r(4), taxRateBp: p.taxRateBp });
    }
    const extras = {
      fee: r(4) === 0 ? 50_000_000n : 0n,
      shipping: r(6) === 0 ? 300_000_000n : 0n,
      discount: r(5) === 0 ? 10_000_000n + BigInt(r(1000)) : 0n,
      tip: r(3) === 0 ? BigInt(1 + r(300_000_000)) : 0n,
    };
    const fiat = r(4) === 0 ? { rate: '', currency: '' } : { rate: i === 7 ? '0.11' : '0.123', currency: i === 7 ? 'EUR' : 'USD' };
    const body = paymentBody(lines, extras, fiat, { orderReference: `R${i}` });
    const who = creators[r(creators.length)];
    const res = await createPayment(
      { storeId: 1, db, network: MAINNET, publicUrl: urlBase, apiKeyId: who.apiKeyId, userId: who.userId, idempotencyKey: null },
      JSON.stringify(body),
    );
    expect(res.status).toBe(201);
    const id = (res.body as { id: string }).id;
    const kind = kinds[r(kinds.length)];
    const createdAt = new Date(start + r(span));
    const status = kind === 'settled' ? 'confirmed' : kind === 'underpaid' ? 'unpaid' : kind === 'expired' ? 'declined' : kind;
    const exception = kind === 'settled' ? 'marked_settled' : kind === 'underpaid' ? 'underpaid' : kind === 'declined' ? 'cancelled' : null;
    // The states the relay, the worker and the merchant's mark would have left
    // (docs/api.md#payments-from-any-wallet).
    await db.prisma.payment.update({
      where: { id },
      data: {
        createdAt,
        status,
        exception,
        ...(status === 'accepted' || status === 'confirmed'
          ? {
              acceptedAt: createdAt,
              txid: i.toString(16).padStart(64, '0'),
              amountPaid: (await db.prisma.payment.findUniqueOrThrow({ where: { id } })).total,
            }
          : {}),
        ...(status === 'confirmed' ? { confirmedAt: new Date(createdAt.getTime() + 600_000), confirmations: 6 } : {}),
        ...(status === 'declined' ? { declinedAt: createdAt, reason: kind === 'expired' ? 'expired' : 'cancelled by vendor' } : {}),
      },
    });
    const row = await db.prisma.payment.findUniqueOrThrow({ where: { id } });
    seeded.push({
      id,
      status,
      exception,
      creator: who.userId ? `u:${who.userId}` : `k:${keyId}`,
      createdAt,
      body,
      total: row.total,
      taxes: row.taxes,
      fees: row.fees,
    });
    // Refunds (docs/api.md#refunds) of some paid sales: part or all of it, confirmed a while later
    // (inside the period or after it), or still unpaid, or failed. Only those confirmed in the
    // period count.
    if ((status === 'confirmed' || status === 'accepted') && r(3) === 0) {
      const amount = formatKoinu(1_000_000n + BigInt(r(Number(row.total - 1_000_000n))));
      const rf = await createRefund({ storeId: 1, db, network: MAINNET, publicUrl: urlBase, userId: managerId, now: createdAt }, id, {
        amount,
        address: customer,
        reason: `refund ${i}`,
      });
      const fate = ['confirmed', 'confirmed', 'unpaid', 'declined'][r(4)];
      const confirmedAt = new Date(createdAt.getTime() + r(24 * 3_600_000));
      await db.prisma.payment.update({
        where: { id: rf.id },
        data:
          fate === 'confirmed'
            ? {
                status: 'confirmed',
                confirmations: 6,
                acceptedAt: createdAt,
                confirmedAt,
                amountPaid: parseKoinu(rf.amount),
                txid: (1000 + i).toString(16).padStart(64, '0'),
              }
            : fate === 'declined'
              ? { status: 'declined', declinedAt: createdAt, reason: 'expired' }
              : {},
      });
      refunds.push({ of: id, amount: parseKoinu(rf.amount), status: fate, confirmedAt: fate === 'confirmed' ? confirmedAt : null });
    }
  }
  return { seeded, refunds, cashiers };
}
