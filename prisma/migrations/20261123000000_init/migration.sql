-- Counter: initial schema. Written by hand; applied by lib/db/migrate.ts and recorded in
-- _prisma_migrations. Money is always BIGINT koinu (1 DOGE = 100,000,000 koinu).

-- Store profile and relay settings (one row, id = 1). The environment only seeds it.
CREATE TABLE "store" (
  "id"                    INTEGER PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
  "name"                  TEXT NOT NULL DEFAULT 'Counter store',
  "icon"                  TEXT NOT NULL DEFAULT '',
  "address"               TEXT NOT NULL DEFAULT '',
  "url"                   TEXT NOT NULL DEFAULT '',
  "fee_per_kb"            BIGINT NOT NULL DEFAULT 1000000 CHECK ("fee_per_kb" >= 0),
  "max_size"              INTEGER NOT NULL DEFAULT 100000 CHECK ("max_size" >= 1),
  "timeout_sec"           INTEGER NOT NULL DEFAULT 900 CHECK ("timeout_sec" >= 1),
  "zero_conf_limit"       BIGINT NOT NULL DEFAULT 0 CHECK ("zero_conf_limit" >= 0),
  "one_conf_limit"        BIGINT NOT NULL DEFAULT 1000000000000 CHECK ("one_conf_limit" >= 0),
  "one_conf_required"     INTEGER NOT NULL DEFAULT 1 CHECK ("one_conf_required" >= 1),
  "high_conf_required"    INTEGER NOT NULL DEFAULT 6 CHECK ("high_conf_required" >= 1),
  "webhook_url"           TEXT NOT NULL DEFAULT '',
  "webhook_secret"        TEXT NOT NULL DEFAULT '',
  "store_xpub"            TEXT NOT NULL DEFAULT '',
  "store_address"         TEXT NOT NULL DEFAULT '',
  "next_address_index"    INTEGER NOT NULL DEFAULT 0 CHECK ("next_address_index" >= 0),
  "fiat_currency"         TEXT NOT NULL DEFAULT '',
  "fiat_rate"             TEXT NOT NULL DEFAULT '',
  "tips_enabled"          BOOLEAN NOT NULL DEFAULT FALSE,
  "created_at"            TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"            TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- Relay signing keys (BIP-340). Exactly one is active; retired keys stay for audit.
CREATE TABLE "relay_key" (
  "id"          SERIAL PRIMARY KEY,
  "pubkey"      TEXT NOT NULL UNIQUE,
  "secret_key"  BYTEA NOT NULL,
  "token_key"   BYTEA NOT NULL,
  "active"      BOOLEAN NOT NULL DEFAULT TRUE,
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "retired_at"  TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "relay_key_one_active" ON "relay_key" ("active") WHERE "active";

-- Small key/value state (setup code hash, schema facts, worker notes).
CREATE TABLE "app_state" (
  "key"         TEXT PRIMARY KEY,
  "value"       TEXT NOT NULL,
  "updated_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "user" (
  "id"             TEXT PRIMARY KEY,
  "email"          TEXT NOT NULL UNIQUE,
  "name"           TEXT NOT NULL DEFAULT '',
  "password_hash"  TEXT NOT NULL,
  "role"           TEXT NOT NULL CHECK ("role" IN ('owner', 'manager', 'cashier')),
  "disabled"       BOOLEAN NOT NULL DEFAULT FALSE,
  "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- Sessions are looked up by the SHA-256 of the cookie value; the raw token is never stored.
CREATE TABLE "session" (
  "token_hash"   TEXT PRIMARY KEY,
  "user_id"      TEXT NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
  "csrf_token"   TEXT NOT NULL,
  "created_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at"   TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "session_user_id_idx" ON "session" ("user_id");

-- API keys are stored as SHA-256 hashes; only a short prefix is kept for display.
CREATE TABLE "api_key" (
  "id"            TEXT PRIMARY KEY,
  "name"          TEXT NOT NULL DEFAULT '',
  "prefix"        TEXT NOT NULL,
  "key_hash"      TEXT NOT NULL UNIQUE,
  "scopes"        TEXT[] NOT NULL,
  "created_by"    TEXT REFERENCES "user"("id") ON DELETE SET NULL,
  "created_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_used_at"  TIMESTAMPTZ(3),
  "revoked_at"    TIMESTAMPTZ(3)
);

CREATE TABLE "product" (
  "id"          TEXT PRIMARY KEY,
  "sku"         TEXT NOT NULL UNIQUE,
  "name"        TEXT NOT NULL,
  "description" TEXT NOT NULL DEFAULT '',
  "icon"        TEXT NOT NULL DEFAULT '',
  "price"       BIGINT NOT NULL CHECK ("price" >= 0),
  "tax_rate_bp" INTEGER NOT NULL DEFAULT 0 CHECK ("tax_rate_bp" >= 0 AND "tax_rate_bp" <= 10000),
  "sort"        INTEGER NOT NULL DEFAULT 0,
  "archived"    BOOLEAN NOT NULL DEFAULT FALSE,
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- A payment and its signed envelope. The envelope bytes are stored exactly as signed.
CREATE TABLE "payment" (
  "id"                        TEXT PRIMARY KEY,
  "seq"                       BIGSERIAL NOT NULL UNIQUE,
  "status"                    TEXT NOT NULL DEFAULT 'unpaid'
                              CHECK ("status" IN ('unpaid', 'accepted', 'confirmed', 'declined')),
  "exception"                 TEXT CHECK ("exception" IN ('paid_late', 'reorged', 'cancelled')),
  "total"                     BIGINT NOT NULL CHECK ("total" > 0),
  "fees"                      BIGINT NOT NULL DEFAULT 0,
  "taxes"                     BIGINT NOT NULL DEFAULT 0,
  "quantity"                  INTEGER NOT NULL DEFAULT 0,
  "address"                   TEXT NOT NULL,
  "address_index"             INTEGER,
  "vendor_order_id"           TEXT NOT NULL DEFAULT '',
  "order_reference"           TEXT NOT NULL DEFAULT '',
  "note"                      TEXT NOT NULL DEFAULT '',
  "vendor_order_url"          TEXT NOT NULL DEFAULT '',
  "fiat_total"                TEXT NOT NULL DEFAULT '',
  "fiat_tax"                  TEXT NOT NULL DEFAULT '',
  "fiat_currency"             TEXT NOT NULL DEFAULT '',
  "mint_hash"                 TEXT NOT NULL DEFAULT '',
  "pending_token_balance_id"  TEXT NOT NULL DEFAULT '',
  "meta"                      JSONB NOT NULL DEFAULT '{}'::jsonb,
  "timeout_sec"               INTEGER NOT NULL,
  "fee_per_kb"                BIGINT NOT NULL,
  "max_size"                  INTEGER NOT NULL,
  "required_confirmations"    INTEGER NOT NULL CHECK ("required_confirmations" >= 0),
  "confirmations"             INTEGER NOT NULL DEFAULT 0,
  "issued_at"                 TIMESTAMPTZ(3) NOT NULL,
  "expires_at"                TIMESTAMPTZ(3) NOT NULL,
  "envelope"                  TEXT NOT NULL,
  "payload_hash"              TEXT NOT NULL,
  "pubkey"                    TEXT NOT NULL,
  "signature"                 TEXT NOT NULL,
  "relay_token"               TEXT NOT NULL,
  "txid"                      TEXT,
  "tx_hex"                    TEXT,
  "broadcast_state"           TEXT NOT NULL DEFAULT 'none'
                              CHECK ("broadcast_state" IN ('none', 'pending', 'sent', 'failed')),
  "refund_address"            TEXT NOT NULL DEFAULT '',
  "buyer_address"             TEXT NOT NULL DEFAULT '',
  "block_height"              INTEGER,
  "block_hash"                TEXT,
  "reason"                    TEXT NOT NULL DEFAULT '',
  "accepted_at"               TIMESTAMPTZ(3),
  "confirmed_at"              TIMESTAMPTZ(3),
  "declined_at"               TIMESTAMPTZ(3),
  "api_key_id"                TEXT REFERENCES "api_key"("id") ON DELETE SET NULL,
  "created_by"                TEXT REFERENCES "user"("id") ON DELETE SET NULL,
  "created_at"                TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"                TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "payment_status_created_idx" ON "payment" ("status", "created_at" DESC);
CREATE INDEX "payment_created_idx" ON "payment" ("created_at" DESC, "id" DESC);
CREATE INDEX "payment_address_idx" ON "payment" ("address");
CREATE INDEX "payment_buyer_address_idx" ON "payment" ("buyer_address");
CREATE INDEX "payment_mint_hash_idx" ON "payment" ("mint_hash");
CREATE UNIQUE INDEX "payment_txid_key" ON "payment" ("txid") WHERE "txid" IS NOT NULL;

CREATE TABLE "payment_line" (
  "payment_id"  TEXT NOT NULL REFERENCES "payment"("id") ON DELETE CASCADE,
  "idx"         INTEGER NOT NULL,
  "type"        TEXT NOT NULL CHECK ("type" IN ('item', 'tax', 'fee', 'shipping', 'discount', 'donation', 'signing')),
  "item_id"     TEXT NOT NULL,
  "name"        TEXT NOT NULL,
  "description" TEXT NOT NULL DEFAULT '',
  "icon"        TEXT NOT NULL DEFAULT '',
  "count"       INTEGER,
  "unit"        BIGINT,
  "total"       BIGINT,
  "tax"         BIGINT,
  PRIMARY KEY ("payment_id", "idx")
);

CREATE TABLE "payment_output" (
  "payment_id"  TEXT NOT NULL REFERENCES "payment"("id") ON DELETE CASCADE,
  "idx"         INTEGER NOT NULL,
  "type"        TEXT NOT NULL CHECK ("type" IN ('p2pkh', 'data')),
  "address"     TEXT,
  "amount"      BIGINT,
  "data"        TEXT,
  PRIMARY KEY ("payment_id", "idx"),
  CHECK (("type" = 'p2pkh' AND "address" IS NOT NULL AND "amount" > 0 AND "data" IS NULL)
      OR ("type" = 'data' AND "data" IS NOT NULL AND "address" IS NULL AND "amount" IS NULL))
);

-- Every transaction a wallet submitted, whatever became of it.
CREATE TABLE "payment_submission" (
  "id"           BIGSERIAL PRIMARY KEY,
  "payment_id"   TEXT NOT NULL REFERENCES "payment"("id") ON DELETE CASCADE,
  "txid"         TEXT,
  "tx_hex"       TEXT NOT NULL,
  "refund"       TEXT NOT NULL DEFAULT '',
  "outcome"      TEXT NOT NULL CHECK ("outcome" IN ('accepted', 'declined', 'rejected', 'ignored', 'pending')),
  "error"        TEXT NOT NULL DEFAULT '',
  "created_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "payment_submission_payment_idx" ON "payment_submission" ("payment_id");

-- Idempotency-Key replay store for POST /api/v1/payments.
CREATE TABLE "idempotency_key" (
  "api_key_id"     TEXT NOT NULL,
  "key"            TEXT NOT NULL,
  "request_hash"   TEXT NOT NULL,
  "status_code"    INTEGER NOT NULL,
  "response_body"  TEXT NOT NULL,
  "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("api_key_id", "key")
);

-- The vendor event log, which is also the webhook outbox. "seq" is the public cursor.
CREATE TABLE "vendor_event" (
  "seq"              BIGSERIAL PRIMARY KEY,
  "id"               TEXT NOT NULL UNIQUE,
  "type"             TEXT NOT NULL CHECK ("type" IN ('payment.accepted', 'payment.confirmed', 'payment.declined',
                                                     'payment.expired', 'payment.unconfirmed', 'payment.paid_late')),
  "payment_id"       TEXT NOT NULL REFERENCES "payment"("id") ON DELETE CASCADE,
  "body"             TEXT NOT NULL,
  "delivery_state"   TEXT NOT NULL DEFAULT 'pending'
                     CHECK ("delivery_state" IN ('pending', 'delivered', 'failed', 'skipped')),
  "attempts"         INTEGER NOT NULL DEFAULT 0,
  "next_attempt_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "delivered_at"     TIMESTAMPTZ(3),
  "created_at"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "vendor_event_payment_idx" ON "vendor_event" ("payment_id");
CREATE INDEX "vendor_event_due_idx" ON "vendor_event" ("next_attempt_at") WHERE "delivery_state" = 'pending';

CREATE TABLE "webhook_attempt" (
  "id"           BIGSERIAL PRIMARY KEY,
  "event_seq"    BIGINT NOT NULL REFERENCES "vendor_event"("seq") ON DELETE CASCADE,
  "attempt"      INTEGER NOT NULL,
  "url"          TEXT NOT NULL,
  "status_code"  INTEGER,
  "error"        TEXT NOT NULL DEFAULT '',
  "duration_ms"  INTEGER NOT NULL DEFAULT 0,
  "created_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "webhook_attempt_event_idx" ON "webhook_attempt" ("event_seq");

-- Header store. "hash" is the display-order hex hash; "header" the raw 80 bytes.
CREATE TABLE "chain_header" (
  "hash"        TEXT PRIMARY KEY,
  "height"      INTEGER NOT NULL,
  "prev_hash"   TEXT NOT NULL,
  "chainwork"   NUMERIC(80, 0) NOT NULL,
  "header"      BYTEA NOT NULL CHECK (octet_length("header") = 80),
  "time"        INTEGER NOT NULL,
  "in_best"     BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE UNIQUE INDEX "chain_header_best_height_key" ON "chain_header" ("height") WHERE "in_best";
CREATE INDEX "chain_header_prev_idx" ON "chain_header" ("prev_hash");

-- Chain worker state: tip, sync progress, last block facts, per-backend cursors.
CREATE TABLE "chain_state" (
  "key"         TEXT PRIMARY KEY,
  "value"       TEXT NOT NULL,
  "updated_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- Watch-only wallet.
CREATE TABLE "wallet_address" (
  "address"      TEXT PRIMARY KEY,
  "hash160"      TEXT NOT NULL,
  "script"       TEXT NOT NULL,
  "branch"       INTEGER NOT NULL DEFAULT 0,
  "idx"          INTEGER NOT NULL DEFAULT 0,
  "created_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "wallet_tx" (
  "txid"        TEXT PRIMARY KEY,
  "raw"         BYTEA NOT NULL,
  "height"      INTEGER,
  "block_hash"  TEXT,
  "seen_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "wallet_output" (
  "txid"           TEXT NOT NULL,
  "vout"           INTEGER NOT NULL,
  "address"        TEXT NOT NULL REFERENCES "wallet_address"("address"),
  "script"         TEXT NOT NULL,
  "amount"         BIGINT NOT NULL CHECK ("amount" >= 0),
  "height"         INTEGER,
  "block_hash"     TEXT,
  "spent_txid"     TEXT,
  "spent_height"   INTEGER,
  "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("txid", "vout")
);
CREATE INDEX "wallet_output_address_idx" ON "wallet_output" ("address");

-- Leader election for the chain worker when several processes share one PostgreSQL.
CREATE TABLE "worker_lease" (
  "name"        TEXT PRIMARY KEY,
  "holder"      TEXT NOT NULL,
  "expires_at"  TIMESTAMPTZ(3) NOT NULL
);
