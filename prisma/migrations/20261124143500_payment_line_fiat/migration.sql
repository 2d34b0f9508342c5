-- Fiat-priced lines as priced (DESIGN.md §14, §15): a receipt shows each line in the fiat currency
-- and "charge again" re-prices the same fiat lines at a new rate, so the fiat amounts are kept per
-- line instead of re-derived from DOGE (which cannot round-trip). Minor units of the payment's
-- fiat_currency; NULL for DOGE-priced payments, signing lines and payments made before this.
ALTER TABLE "payment_line" ADD COLUMN IF NOT EXISTS "fiat_unit" BIGINT;
ALTER TABLE "payment_line" ADD COLUMN IF NOT EXISTS "fiat_tax" BIGINT;
