-- The payments whose confirmation count can still move when a block is connected (DESIGN.md §4,
-- lib/relay/chain-sync.ts updateConfirmations): every accepted one, and the confirmed ones not yet
-- counted to CONFIRMATIONS_TRACKED (100). A shop's history, confirmed long ago and counted to
-- 100, is not in it: a new block no longer reads every payment ever paid.
CREATE INDEX IF NOT EXISTS "payment_confirming_idx" ON "payment" ("block_height")
  WHERE "status" = 'accepted' OR ("status" = 'confirmed' AND "confirmations" < 100);
