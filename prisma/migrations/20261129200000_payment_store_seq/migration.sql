-- A store's payments in seq order, store first (docs/performance.md#many-stores). It serves the
-- three reads of one store's payments: its count (the invoice listing's total and the operator's
-- per-store count, `store_id = $1 AND seq > 0`, an index-only range), the vendor API's list
-- (GET /api/v1/payments, newest first by seq, its cursor a seq) and the invoice listing of the
-- store's seller address. Without it each scanned payment_seq_key backwards and dropped the other
-- stores' rows, or read and sorted every row of the store.
CREATE INDEX IF NOT EXISTS "payment_store_seq_idx" ON "payment" ("store_id", "seq" DESC);
