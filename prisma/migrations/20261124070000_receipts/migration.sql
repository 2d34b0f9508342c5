-- Receipts (DESIGN.md §15): the store's time zone (an IANA name; '' = env TZ, else UTC) and the
-- SMTP server email receipts are sent through ('' = env SMTP_URL / SMTP_FROM).
ALTER TABLE "store" ADD COLUMN "timezone" TEXT NOT NULL DEFAULT '';
ALTER TABLE "store" ADD COLUMN "smtp_url" TEXT NOT NULL DEFAULT '';
ALTER TABLE "store" ADD COLUMN "smtp_from" TEXT NOT NULL DEFAULT '';
