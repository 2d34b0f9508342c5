-- Stock movements (docs/catalog.md#stock): every change to a tracked product's stock, with why
-- (`reason`), who (`user_id`) and, for sales, the payment. A product's `stock` column is the
-- running count; each movement is written in the same transaction (and statement, for sales)
-- as the change it records.
CREATE TABLE "stock_movement" (
  "id" BIGSERIAL PRIMARY KEY,
  "product_id" TEXT NOT NULL REFERENCES "product"("id") ON DELETE CASCADE,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "delta" INTEGER NOT NULL,
  "reason" TEXT NOT NULL,
  "note" TEXT NOT NULL DEFAULT '',
  "user_id" TEXT REFERENCES "user"("id") ON DELETE SET NULL,
  "payment_id" TEXT REFERENCES "payment"("id") ON DELETE SET NULL
);
CREATE INDEX "stock_movement_product_at_idx" ON "stock_movement"("product_id", "at" DESC, "id" DESC);
-- A payment takes a product's stock once (sale), gives it back once (declined, returned): the
-- index is what makes a retried or raced acceptance a no-op for stock.
CREATE UNIQUE INDEX "stock_movement_payment_once_idx" ON "stock_movement"("payment_id", "product_id", "reason") WHERE "payment_id" IS NOT NULL;
