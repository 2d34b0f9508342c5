-- Exchange-rate sources (DESIGN.md §14): the worker writes each source's last outcome here every
-- RATE_REFRESH_SEC, so every web process reads the same rates with one small primary-key scan.
-- `value`/`value_at` are the last GOOD value (a decimal string, fiat per DOGE) and when it was
-- fetched; `ok`/`error`/`checked_at` describe the last attempt, good or not.
CREATE TABLE "rate_source" (
    "currency" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT,
    "value_at" TIMESTAMPTZ(3),
    "ok" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT NOT NULL DEFAULT '',
    "checked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "rate_source_pkey" PRIMARY KEY ("currency", "name")
);

-- The store's pricing currency: DOGE, or an ISO 4217 code whose prices are converted at the rate
-- in force. (IF NOT EXISTS: the fiat-pricing work may add the same column.)
ALTER TABLE "store" ADD COLUMN IF NOT EXISTS "pricing_currency" TEXT NOT NULL DEFAULT 'DOGE';
