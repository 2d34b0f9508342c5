-- An open ticket is its store's (docs/architecture.md#data): it carries store_id like every
-- store-owned table, leading the index the till's list uses.
ALTER TABLE "pos_ticket" ADD COLUMN "store_id" INTEGER NOT NULL DEFAULT 1;
DROP INDEX "pos_ticket_open_idx";
CREATE INDEX "pos_ticket_store_open_idx" ON "pos_ticket" ("store_id", "closed_at", "created_at");
