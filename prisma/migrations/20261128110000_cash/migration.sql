-- Cash as a tender (docs/counter.md#cash). A cash sale is a payment row recorded at once as
-- confirmed: it has no address, envelope or wallet-facing state (address, envelope, pubkey and
-- signature are ''), and it keeps what the customer handed over and the change given, both in
-- the fiat pricing currency's fixed form ("20.00"), as fiat_total is. Every other payment is
-- tender 'doge'.
ALTER TABLE "payment" ADD COLUMN "tender" TEXT NOT NULL DEFAULT 'doge';
ALTER TABLE "payment" ADD COLUMN "cash_received" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payment" ADD COLUMN "cash_change" TEXT NOT NULL DEFAULT '';

-- The till offers Cash beside Dogecoin when the store prices in a fiat currency, unless turned off.
ALTER TABLE "store" ADD COLUMN "cash_enabled" BOOLEAN NOT NULL DEFAULT true;
