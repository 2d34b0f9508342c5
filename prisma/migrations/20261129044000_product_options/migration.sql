-- Options (modifiers) of a product (docs/catalog.md#options): its option groups, each
-- { "name", "min", "max", "options": [ { "name", "price" } ] }, a price in the minor units of the
-- product's price_currency. Kept on the product row: they are edited, read and priced with it.
ALTER TABLE "product" ADD COLUMN "option_groups" JSONB NOT NULL DEFAULT '[]';

-- The options a sale's item line was sold with, as priced: [ { "name", "unit" } ], `unit` the
-- option's DOGE per unit of the line in koinu (a decimal string). Null for a line without.
ALTER TABLE "payment_line" ADD COLUMN "options" JSONB;
