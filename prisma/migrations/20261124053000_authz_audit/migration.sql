-- Security round two (issue 19).

-- The audit log (DESIGN.md §9): every settings, wallet, user, API key and relay key change, who
-- made it and what changed (never a secret). The actor's email is kept as it was, so the log
-- still reads right after the user is renamed or disabled.
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_id" TEXT,
    "user_email" TEXT NOT NULL DEFAULT '',
    "action" TEXT NOT NULL,
    "changes" JSONB NOT NULL DEFAULT '{}',
    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_log_at_idx" ON "audit_log" ("at" DESC, "id" DESC);

-- MAX_OPEN_PAYMENTS (DESIGN.md §16): open payments are counted from this partial index, from
-- now on and only up to the cap, however many expired or paid payments the table holds.
CREATE INDEX "payment_open_expires_idx" ON "payment" ("expires_at") WHERE "status" = 'unpaid';

-- A cashier lists its own sales, newest first (DESIGN.md §3).
CREATE INDEX "payment_created_by_seq_idx" ON "payment" ("created_by", "seq" DESC);
