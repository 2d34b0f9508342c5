-- Payments from any wallet (DESIGN.md §12): every tx that pays a payment's address is kept,
-- amounts are summed, and the merchant's decision is recorded.
ALTER TABLE "payment" DROP CONSTRAINT "payment_exception_check";
ALTER TABLE "payment" ADD CONSTRAINT "payment_exception_check" CHECK ("exception" IN (
  'paid_late', 'reorged', 'cancelled', 'underpaid', 'overpaid', 'double_spent', 'marked_settled', 'marked_invalid'));
ALTER TABLE "payment" ADD COLUMN "amount_paid" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "payment" ADD COLUMN "paid_txids" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "payment" ADD COLUMN "decision_as" TEXT;
ALTER TABLE "payment" ADD COLUMN "decision_note" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payment" ADD COLUMN "decided_by" TEXT;
ALTER TABLE "payment" ADD COLUMN "decided_at" TIMESTAMPTZ(3);
ALTER TABLE "payment" ADD CONSTRAINT "payment_decision_as_check" CHECK ("decision_as" IN ('settled', 'invalid'));

-- One row per tx that pays a payment's address (mempool or chain), in the order seen (seq).
-- value: the sum of that tx's outputs to the address; inputs: the outpoints it spends
-- ("txid:vout"), to find the tx that double-spends it when that one is mined.
CREATE TABLE "payment_tx" (
    "seq"          BIGSERIAL PRIMARY KEY,
    "payment_id"   TEXT NOT NULL REFERENCES "payment" ("id") ON DELETE CASCADE,
    "txid"         TEXT NOT NULL,
    "value"        BIGINT NOT NULL,
    "inputs"       TEXT[] NOT NULL DEFAULT '{}',
    "seen_at"      TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "block_height" INTEGER,
    "block_hash"   TEXT,
    "conflicted_by" TEXT
);
CREATE UNIQUE INDEX "payment_tx_payment_txid_key" ON "payment_tx" ("payment_id", "txid");
CREATE INDEX "payment_tx_txid_idx" ON "payment_tx" ("txid");
CREATE INDEX "payment_tx_block_hash_idx" ON "payment_tx" ("block_hash");
-- The txs a mined block may double-spend: only the unmined, unconflicted ones are scanned.
CREATE INDEX "payment_tx_unmined_idx" ON "payment_tx" ("seq") WHERE "block_height" IS NULL AND "conflicted_by" IS NULL;

-- Payments accepted before this migration: their one tx paid the total.
INSERT INTO "payment_tx" ("payment_id", "txid", "value", "seen_at", "block_height", "block_hash")
SELECT "id", "txid", "total", COALESCE("accepted_at", "updated_at"), "block_height", "block_hash"
  FROM "payment" WHERE "txid" IS NOT NULL AND "status" IN ('accepted', 'confirmed');
UPDATE "payment" SET "amount_paid" = "total", "paid_txids" = ARRAY["txid"]
 WHERE "txid" IS NOT NULL AND "status" IN ('accepted', 'confirmed');

ALTER TABLE "vendor_event" DROP CONSTRAINT "vendor_event_type_check";
ALTER TABLE "vendor_event" ADD CONSTRAINT "vendor_event_type_check" CHECK ("type" IN ('payment.accepted', 'payment.confirmed',
  'payment.declined', 'payment.expired', 'payment.unconfirmed', 'payment.paid_late', 'payment.underpaid', 'payment.overpaid'));
