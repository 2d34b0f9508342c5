-- Back office and GET /invoices/{address}: newest-first index scans per matched column, so a
-- page of an address's invoices never sorts the whole table (benchmark: 1,000,000 invoices).
CREATE INDEX "payment_address_seq_idx" ON "payment" ("address", "seq" DESC);
CREATE INDEX "payment_buyer_seq_idx" ON "payment" ("buyer_address", "seq" DESC);
CREATE INDEX "payment_mint_hash_seq_idx" ON "payment" ("mint_hash", "seq" DESC);
-- Sales per day and invoice filters by date in the back office.
CREATE INDEX "payment_created_seq_idx" ON "payment" ("created_at", "seq");
-- The catalog lists live products in their display order.
CREATE INDEX "product_archived_sort_idx" ON "product" ("archived", "sort", "name");
