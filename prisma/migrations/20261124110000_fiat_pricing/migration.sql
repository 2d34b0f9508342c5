-- Fiat-first pricing (DESIGN.md §14). A fiat-priced payment locks the rate it was converted at:
-- `rate_value` (fiat per DOGE, a decimal string), `rate_source` (the sources whose median it was)
-- and `rate_at` (the oldest fetch among them). '' / NULL for DOGE-priced payments.
-- (IF NOT EXISTS: the refunds work adds the identical columns.)
ALTER TABLE "payment" ADD COLUMN IF NOT EXISTS "rate_value" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payment" ADD COLUMN IF NOT EXISTS "rate_source" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payment" ADD COLUMN IF NOT EXISTS "rate_at" TIMESTAMPTZ(3);

-- A product's price is in the minor units of `price_currency` (koinu for DOGE, cents for USD):
-- switching the store's pricing currency never reinterprets an old price; products priced in
-- another currency are flagged in the back office and left off the till until re-priced.
ALTER TABLE "product" ADD COLUMN IF NOT EXISTS "price_currency" TEXT NOT NULL DEFAULT 'DOGE';
