-- The wallet check (docs/wallet-check.md): runs, their cases and the user agents seen. Nothing here
-- is a payment: the store's tables never hold a check's envelopes, submissions or txs.
CREATE TABLE "wallet_check_run" (
  "id"          TEXT PRIMARY KEY,
  "client_key"  TEXT NOT NULL,
  "created_at"  TIMESTAMPTZ(3) NOT NULL,
  "finished_at" TIMESTAMPTZ(3)
);
CREATE INDEX "wallet_check_run_client_idx" ON "wallet_check_run" ("client_key", "created_at");
CREATE INDEX "wallet_check_run_created_idx" ON "wallet_check_run" ("created_at");

CREATE TABLE "wallet_check_case" (
  "id"           TEXT PRIMARY KEY,
  "run_id"       TEXT NOT NULL REFERENCES "wallet_check_run" ("id") ON DELETE CASCADE,
  "position"     INTEGER NOT NULL,
  "name"         TEXT NOT NULL,
  "expect"       TEXT NOT NULL,
  "address"      TEXT NOT NULL,
  "addr_index"   INTEGER NOT NULL,
  "uri"          TEXT NOT NULL,
  "envelope"     TEXT NOT NULL,
  "outputs"      JSONB NOT NULL,
  "fee_per_kb"   BIGINT NOT NULL,
  "max_size"     INTEGER NOT NULL,
  "expires_at"   TIMESTAMPTZ(3) NOT NULL,
  "fetched_at"   TIMESTAMPTZ(3),
  "result"       TEXT NOT NULL DEFAULT 'pending',
  "detail"       TEXT NOT NULL DEFAULT '',
  "txid"         TEXT,
  "decided_at"   TIMESTAMPTZ(3)
);
CREATE INDEX "wallet_check_case_run_idx" ON "wallet_check_case" ("run_id", "position");
CREATE INDEX "wallet_check_case_address_idx" ON "wallet_check_case" ("address");

CREATE TABLE "wallet_check_agent" (
  "run_id"     TEXT NOT NULL REFERENCES "wallet_check_run" ("id") ON DELETE CASCADE,
  "user_agent" TEXT NOT NULL,
  "seen_at"    TIMESTAMPTZ(3) NOT NULL,
  PRIMARY KEY ("run_id", "user_agent")
);

-- Addresses of the check's receiving key are never handed out twice, even after old runs are pruned.
CREATE SEQUENCE "wallet_check_address_seq" START 0 MINVALUE 0;
