-- The payment row is written twice by every /relay/pay (the claim, then the acceptance), and
-- each write changes indexed columns (status, txid, buyer_address), so each adds an entry to
-- every index of the table. Two of them duplicated the leading column of another: (buyer_address)
-- of (buyer_address, seq DESC) and (mint_hash) of (mint_hash, seq DESC); the composite index
-- answers the same lookups. (address) stays: the worker looks up every new mempool tx's
-- addresses at once (address = ANY), and without table statistics (PGlite runs no autovacuum)
-- the planner prices the wider (address, seq DESC) index above a scan of the whole table.
DROP INDEX IF EXISTS "payment_buyer_address_idx";
DROP INDEX IF EXISTS "payment_mint_hash_idx";

-- The claims a crash interrupted (lib/worker.ts reconcilePending, every second): without it the
-- worker read every unpaid payment each second to find the ones claimed and not decided.
CREATE INDEX IF NOT EXISTS "payment_claim_pending_idx" ON "payment" ("updated_at")
  WHERE "status" = 'unpaid' AND "broadcast_state" = 'pending';
