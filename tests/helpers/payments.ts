// Payments for in-process tests: created through the same code as POST /api/v1/payments
// (lib/payments/creation/create-payment.ts), by a trusted caller (no API key, no user), on a store whose
// receiving wallet the test has set. The body is one line, a tea at `unit` DOGE (or the `items`
// given), plus `extra`.
import { expect } from 'vitest';
import type { Db } from '@/lib/db';
import { REGTEST, type Network } from '@/lib/doge';
import { createPayment } from '@/lib/payments/creation/create-payment';

/** A PUBLIC_URL nothing listens on: the payments' URLs are only ever read, never fetched. */
export const TEST_PUBLIC_URL = 'http://127.0.0.1:1';

/** The request body of a one-line sale: `unit` DOGE for a tea, plus any other fields. */
export const teaRequest = (unit = '2', extra: Record<string, unknown> = {}) => ({
  items: [{ type: 'item', id: 'sku', name: 'Tea', count: 1, unit }],
  ...extra,
});

export interface TestPaymentOptions {
  unit?: string;
  /** The lines instead of the one tea. */
  items?: unknown[];
  extra?: Record<string, unknown>;
  /** The creation time (default now). */
  now?: Date;
  network?: Network;
  publicUrl?: string;
}

/** Creates a payment (expecting 201) and returns the 201 body. */
export async function createTestPayment<T = { id: string; payment: { outputs: { address: string }[] } }>(
  db: Db,
  opts: TestPaymentOptions = {},
): Promise<T> {
  const r = await createPayment(
    {
      storeId: 1,
      db,
      network: opts.network ?? REGTEST,
      publicUrl: opts.publicUrl ?? TEST_PUBLIC_URL,
      apiKeyId: null,
      userId: null,
      idempotencyKey: null,
      ...(opts.now ? { now: opts.now } : {}),
    },
    JSON.stringify(opts.items ? { items: opts.items, ...opts.extra } : teaRequest(opts.unit, opts.extra)),
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as T;
}
