-- Open tickets (docs/counter.md#open-tickets): a sale kept open on the till ("Table 4") and picked
-- up later by anyone of the store signed in to the till. `cart` is the till's own cart (JSON, at
-- most 64 KiB), `total` the total it showed. `updated_at` is the version a PUT must send back.
-- A ticket closes when a payment charged from it (payment.ticket_id) becomes accepted or
-- confirmed, or when it is deleted (closed_at).
CREATE TABLE "pos_ticket" (
  "id" TEXT PRIMARY KEY,
  "name" TEXT NOT NULL,
  "cart" JSONB NOT NULL,
  "total" TEXT NOT NULL DEFAULT '',
  "created_by" TEXT,
  "updated_by" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "closed_at" TIMESTAMPTZ(3)
);
CREATE INDEX "pos_ticket_open_idx" ON "pos_ticket" ("closed_at", "created_at");

ALTER TABLE "payment" ADD COLUMN "ticket_id" TEXT;
CREATE INDEX "payment_ticket_idx" ON "payment" ("ticket_id") WHERE "ticket_id" IS NOT NULL;
