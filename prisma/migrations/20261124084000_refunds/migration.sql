-- Refunds (DESIGN.md §13). A refund is an outgoing payment request that the merchant's own
-- wallet pays through Counter's relay, so it is stored as a row of "payment" (the relay, the
-- chain worker, the state machine and the envelope code serve it unchanged) that points at the
-- payment it refunds with "refund_of".
--
-- Refunds are not sales. Every sales listing excludes them; the ones that walk the seq indexes
-- index-only (GET /invoices/{address}, the invoice count) must not visit the heap to do so, so
-- a refund row takes a NEGATIVE seq (nextval − 2^62: unique, still in creation order among
-- refunds) and those listings add "seq > 0", an index condition on every (…, seq) index.
ALTER TABLE "payment" ADD COLUMN IF NOT EXISTS "refund_of" TEXT REFERENCES "payment" ("id") ON DELETE CASCADE;
ALTER TABLE "payment" ADD COLUMN IF NOT EXISTS "refund_reason" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payment" ADD CONSTRAINT "payment_refund_seq_check" CHECK (("refund_of" IS NULL) = ("seq" > 0));
CREATE INDEX IF NOT EXISTS "payment_refund_of_idx" ON "payment" ("refund_of") WHERE "refund_of" IS NOT NULL;

-- The rate locked into a fiat-priced payment (DESIGN.md §14), read by refunds "at the rate then".
-- The fiat-pricing work adds the same columns (IF NOT EXISTS: either migration may come first).
ALTER TABLE "payment" ADD COLUMN IF NOT EXISTS "rate_value" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payment" ADD COLUMN IF NOT EXISTS "rate_source" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payment" ADD COLUMN IF NOT EXISTS "rate_at" TIMESTAMPTZ(3);

-- The invoice count counts sales only.
CREATE OR REPLACE FUNCTION "payment_count_ins"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE s int := floor(random() * 16)::int; -- chosen once: random() in WHERE would run per row
BEGIN
  UPDATE "payment_count" SET "n" = "n" + (SELECT count(*) FROM new_rows WHERE "seq" > 0) WHERE "shard" = s;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION "payment_count_del"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE s int := floor(random() * 16)::int; -- chosen once: random() in WHERE would run per row
BEGIN
  UPDATE "payment_count" SET "n" = "n" - (SELECT count(*) FROM old_rows WHERE "seq" > 0) WHERE "shard" = s;
  RETURN NULL;
END $$;

ALTER TABLE "vendor_event" DROP CONSTRAINT IF EXISTS "vendor_event_type_check";
ALTER TABLE "vendor_event" ADD CONSTRAINT "vendor_event_type_check" CHECK ("type" IN ('payment.accepted', 'payment.confirmed',
  'payment.declined', 'payment.expired', 'payment.unconfirmed', 'payment.paid_late', 'payment.underpaid', 'payment.overpaid',
  'refund.created', 'refund.accepted', 'refund.confirmed'));
