-- The customer's display (docs/counter.md#the-customers-display). A till shows a short-lived,
-- single-use pairing code; the browser that enters it becomes a display of that terminal and
-- keeps a long-lived httpOnly cookie whose token is stored only as its SHA-256 (as terminal
-- tokens are). The till publishes its cart to `display_cart`, one row per terminal.
--
-- Every change a display must learn of is announced on the channel `display_changed` with the
-- terminal's id as payload (in-process on PGlite, LISTEN/NOTIFY across processes on
-- PostgreSQL): a published cart, a display paired or unpaired, the terminal revoked. One read
-- per change and process then serves every open display (docs/live.md), never a poll per display.
CREATE TABLE "display_pairing" (
    "code_hash" TEXT NOT NULL,
    "terminal_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "display_pairing_pkey" PRIMARY KEY ("code_hash")
);
ALTER TABLE "display_pairing" ADD CONSTRAINT "display_pairing_terminal_id_fkey" FOREIGN KEY ("terminal_id") REFERENCES "terminal"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "display_pairing_terminal_idx" ON "display_pairing"("terminal_id");

CREATE TABLE "customer_display" (
    "id" TEXT NOT NULL,
    "terminal_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "customer_display_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "customer_display_token_hash_key" ON "customer_display"("token_hash");
CREATE INDEX "customer_display_terminal_idx" ON "customer_display"("terminal_id");
ALTER TABLE "customer_display" ADD CONSTRAINT "customer_display_terminal_id_fkey" FOREIGN KEY ("terminal_id") REFERENCES "terminal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "display_cart" (
    "terminal_id" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "display_cart_pkey" PRIMARY KEY ("terminal_id")
);
ALTER TABLE "display_cart" ADD CONSTRAINT "display_cart_terminal_id_fkey" FOREIGN KEY ("terminal_id") REFERENCES "terminal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE OR REPLACE FUNCTION counter_display_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('display_changed', OLD.terminal_id);
  ELSIF TG_TABLE_NAME = 'terminal' THEN
    PERFORM pg_notify('display_changed', NEW.id);
  ELSE
    PERFORM pg_notify('display_changed', NEW.terminal_id);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS display_cart_changed_notify ON "display_cart";
CREATE TRIGGER display_cart_changed_notify AFTER INSERT OR UPDATE ON "display_cart"
  FOR EACH ROW EXECUTE FUNCTION counter_display_changed();
DROP TRIGGER IF EXISTS customer_display_changed_notify ON "customer_display";
CREATE TRIGGER customer_display_changed_notify AFTER INSERT OR DELETE ON "customer_display"
  FOR EACH ROW EXECUTE FUNCTION counter_display_changed();
DROP TRIGGER IF EXISTS terminal_revoked_notify ON "terminal";
CREATE TRIGGER terminal_revoked_notify AFTER UPDATE OF "revoked_at" ON "terminal"
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at)
  EXECUTE FUNCTION counter_display_changed();
