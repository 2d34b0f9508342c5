-- The store-first list indexes of the payments and their events wait for the queries that use
-- them (every list filtered by store, docs/architecture.md#data): until then they cost every
-- /relay/pay acceptance two more index writes on payment and one on vendor_event, for nothing.
DROP INDEX IF EXISTS "payment_store_created_idx";
DROP INDEX IF EXISTS "payment_store_status_created_idx";
DROP INDEX IF EXISTS "vendor_event_store_seq_idx";
