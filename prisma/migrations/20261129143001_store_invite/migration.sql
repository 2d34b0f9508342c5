-- The operator's invites (docs/architecture.md#data): taking one makes its taker the store's
-- owner. Single use and valid for 7 days; only the token's SHA-256 is stored.
CREATE TABLE "store_invite" (
  "token_hash"  TEXT         NOT NULL,
  "store_id"    INTEGER      NOT NULL,
  "email"       TEXT         NOT NULL,
  "created_by"  TEXT,
  "expires_at"  TIMESTAMPTZ(3) NOT NULL,
  "used_at"     TIMESTAMPTZ(3),
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "store_invite_pkey" PRIMARY KEY ("token_hash")
);
CREATE INDEX "store_invite_store_idx" ON "store_invite" ("store_id", "created_at");
