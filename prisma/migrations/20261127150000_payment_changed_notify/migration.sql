-- The live path (docs/live.md): every committed change of a payment row is announced on the
-- channel `payment_changed` with the payment's id as payload, so that the streams of every
-- process (GET /api/v1/payments/<id>/events, the checkout page, the display) learn of it at
-- once instead of polling. NOTIFY is delivered only when the transaction commits, and once per
-- distinct payload per transaction; PGlite delivers it to its own process, PostgreSQL to every
-- session that LISTENs. No code that writes payments has to know.
--
-- A refund is a payment row of its own (refund_of): its change is also announced for the
-- payment it refunds, whose view lists its refunds.
--
-- The claim that starts a /relay/pay broadcast (broadcast_state 'pending') is not announced:
-- it is a transient state that the acceptance or the release ends within seconds (both
-- announced), and /relay/pay is the hot path whose every write would pay for the notification.
-- A stream still sees it at the next safety poll if it lasts.
CREATE OR REPLACE FUNCTION counter_payment_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('payment_changed', NEW.id);
  IF NEW.refund_of IS NOT NULL THEN
    PERFORM pg_notify('payment_changed', NEW.refund_of);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS payment_changed_notify ON "payment";
CREATE TRIGGER payment_changed_notify AFTER INSERT OR UPDATE ON "payment"
  FOR EACH ROW WHEN (NEW.broadcast_state <> 'pending')
  EXECUTE FUNCTION counter_payment_changed();
