-- A watched address is its store's (docs/architecture.md#data): the chain worker watches every
-- store's wallet at once, and the node text API answers for the key's store's addresses only.
-- Existing addresses are the first store's, whose wallet they were derived from.
ALTER TABLE "wallet_address" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
CREATE INDEX "wallet_address_store_idx" ON "wallet_address" ("store_id", "branch", "idx");
