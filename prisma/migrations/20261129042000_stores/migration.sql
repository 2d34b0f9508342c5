-- Many stores on one Counter (docs/architecture.md#data). Upgrades in place: the one store of a
-- single-store install becomes the first store (id 1), and everything it owned is backfilled to
-- it, so nothing is lost and nothing moves.

-- The store table holds many rows now: ids from a sequence, past the first store's.
ALTER TABLE "store" DROP CONSTRAINT IF EXISTS "store_id_check";
-- An install with accounts but no store row yet (the row is seeded at start-up) gets its first store now.
INSERT INTO "store" ("id") SELECT 1 WHERE EXISTS (SELECT 1 FROM "user") AND NOT EXISTS (SELECT 1 FROM "store");
CREATE SEQUENCE "store_id_seq" AS INTEGER OWNED BY "store"."id";
SELECT setval('store_id_seq', COALESCE((SELECT max("id") FROM "store"), 0) + 1, false);
ALTER TABLE "store" ALTER COLUMN "id" SET DEFAULT nextval('store_id_seq');
-- A suspended store takes no new payments; the open ones run to their end.
ALTER TABLE "store" ADD COLUMN "suspended" BOOLEAN NOT NULL DEFAULT FALSE;
-- A receiving wallet belongs to one store (blank = none set).
CREATE UNIQUE INDEX "store_xpub_key" ON "store" ("store_xpub") WHERE "store_xpub" <> '';
CREATE UNIQUE INDEX "store_address_key" ON "store" ("store_address") WHERE "store_address" <> '';

-- The operator runs the installation: one account at most. Start-up moves the flag to the account
-- ADMIN_EMAIL names when it exists; until then, the oldest owner.
ALTER TABLE "user" ADD COLUMN "operator" BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE "user" ADD COLUMN "last_store_id" INTEGER;
CREATE UNIQUE INDEX "user_one_operator" ON "user" ("operator") WHERE "operator";
UPDATE "user" SET "operator" = TRUE
 WHERE "id" = (SELECT "id" FROM "user" WHERE "role" = 'owner' ORDER BY "created_at", "id" LIMIT 1);

-- A user is a member of stores, with a role and a PIN in each.
CREATE TABLE "membership" (
  "store_id"    INTEGER NOT NULL,
  "user_id"     TEXT NOT NULL REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "role"        TEXT NOT NULL CHECK ("role" IN ('owner', 'manager', 'cashier')),
  "pin_hash"    TEXT,
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "membership_pkey" PRIMARY KEY ("store_id", "user_id")
);
CREATE INDEX "membership_user_idx" ON "membership" ("user_id");
INSERT INTO "membership" ("store_id", "user_id", "role", "pin_hash", "created_at")
SELECT 1, "id", "role", "pin_hash", "created_at" FROM "user";
UPDATE "user" SET "last_store_id" = 1;

-- A session acts for its current store.
ALTER TABLE "session" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;

-- What a store owns carries its store_id; existing rows are the first store's.
ALTER TABLE "relay_key" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "api_key" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "product" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "stock_movement" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "payment" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "payment_line" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "payment_output" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "payment_submission" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "payment_tx" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "idempotency_key" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "vendor_event" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "webhook_attempt" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "audit_log" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "terminal" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "display_pairing" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "customer_display" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "display_cart" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;

-- One active signing key per store.
DROP INDEX "relay_key_one_active";
CREATE UNIQUE INDEX "relay_key_one_active" ON "relay_key" ("store_id") WHERE "active";

-- SKUs and barcodes are unique within their store, and may repeat across stores.
ALTER TABLE "product" DROP CONSTRAINT "product_sku_key";
CREATE UNIQUE INDEX "product_store_sku_key" ON "product" ("store_id", "sku");
DROP INDEX "product_barcode_key";
CREATE UNIQUE INDEX "product_store_barcode_key" ON "product" ("store_id", "barcode");

-- The lists a store reads lead with its store_id.
CREATE INDEX "payment_store_created_idx" ON "payment" ("store_id", "created_at" DESC, "id" DESC);
CREATE INDEX "payment_store_status_created_idx" ON "payment" ("store_id", "status", "created_at" DESC);
CREATE INDEX "product_store_archived_sort_idx" ON "product" ("store_id", "archived", "sort", "name");
CREATE INDEX "audit_log_store_at_idx" ON "audit_log" ("store_id", "at" DESC, "id" DESC);
CREATE INDEX "api_key_store_idx" ON "api_key" ("store_id", "created_at");
CREATE INDEX "terminal_store_idx" ON "terminal" ("store_id", "created_at");
CREATE INDEX "vendor_event_store_seq_idx" ON "vendor_event" ("store_id", "seq");
