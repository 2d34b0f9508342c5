-- Registered tills and staff PINs (docs/counter.md). A terminal's cookie holds a 256-bit random
-- token; only its SHA-256 is kept here, as for sessions and API keys. A PIN is kept as an scrypt
-- hash, as a password is. A session opened with a PIN names its terminal: such a session opens
-- the till only, never the back office. Each sale remembers the terminal it was made on.
CREATE TABLE "terminal" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "terminal_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "terminal_token_hash_key" ON "terminal"("token_hash");

ALTER TABLE "user" ADD COLUMN "pin_hash" TEXT;

ALTER TABLE "session" ADD COLUMN "terminal_id" TEXT;
ALTER TABLE "session" ADD CONSTRAINT "session_terminal_id_fkey" FOREIGN KEY ("terminal_id") REFERENCES "terminal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "payment" ADD COLUMN "terminal_id" TEXT;
ALTER TABLE "payment" ADD COLUMN "terminal" TEXT;
ALTER TABLE "payment" ADD CONSTRAINT "payment_terminal_id_fkey" FOREIGN KEY ("terminal_id") REFERENCES "terminal"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "payment_terminal_created_idx" ON "payment"("terminal_id", "created_at" DESC);

-- The till locks itself after this many seconds without a touch (0 = never).
ALTER TABLE "store" ADD COLUMN "till_lock_sec" INTEGER NOT NULL DEFAULT 300;
