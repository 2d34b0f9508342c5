-- "First expiry" is a fact of the payment row (lib/payments/table.ts row timer.expired): the
-- moment payment.expired was emitted. It used to be decided by counting the payment's
-- vendor_event rows, outside the state table. Existing rows take it from the event they have.
ALTER TABLE "payment" ADD COLUMN "expired_at" TIMESTAMPTZ(3);

UPDATE "payment" p SET "expired_at" = e.at
  FROM (SELECT payment_id, min(created_at) AS at FROM "vendor_event" WHERE type = 'payment.expired' GROUP BY payment_id) e
 WHERE e.payment_id = p.id;

-- The worker's expiry scan (every second, lib/payments/chain-sync.ts expirePayments): only the
-- unpaid payments not yet expired, by their deadline. (payment_open_expires_idx, every unpaid
-- payment by expiry, stays for the open-payments cap.)
CREATE INDEX IF NOT EXISTS "payment_expiry_due_idx" ON "payment" ("expires_at") WHERE "status" = 'unpaid' AND "expired_at" IS NULL;
