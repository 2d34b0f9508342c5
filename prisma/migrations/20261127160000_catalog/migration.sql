-- A catalog for a real shop (docs/catalog.md): a product's category, barcode and stock, and the
-- store's ordered list of categories. `barcode` is NULL when not set, so the unique index only
-- binds products that have one. `stock` NULL means the product's stock is not tracked.
ALTER TABLE "product" ADD COLUMN "category" TEXT NOT NULL DEFAULT '';
ALTER TABLE "product" ADD COLUMN "barcode" TEXT;
ALTER TABLE "product" ADD COLUMN "stock" INTEGER;
ALTER TABLE "product" ADD COLUMN "low_stock" INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX "product_barcode_key" ON "product"("barcode");

ALTER TABLE "store" ADD COLUMN "categories" JSONB NOT NULL DEFAULT '[]';
