-- A payment with `data` outputs is paid only by a tx that carries every one of them; money from
-- a tx lacking one is counted in amount_paid but leaves the payment unpaid with exception
-- data_missing (lib/payments/table.ts row chain.data_missing). Each counted tx records which it
-- is. Txs counted so far were counted as paying: they keep that.
ALTER TABLE "payment_tx" ADD COLUMN "commits_data" BOOLEAN NOT NULL DEFAULT true;

-- The exception that says so.
ALTER TABLE "payment" DROP CONSTRAINT "payment_exception_check";
ALTER TABLE "payment" ADD CONSTRAINT "payment_exception_check" CHECK ("exception" IN (
  'paid_late', 'reorged', 'cancelled', 'underpaid', 'overpaid', 'double_spent', 'data_missing', 'marked_settled', 'marked_invalid'));

-- And its event.
ALTER TABLE "vendor_event" DROP CONSTRAINT IF EXISTS "vendor_event_type_check";
ALTER TABLE "vendor_event" ADD CONSTRAINT "vendor_event_type_check" CHECK ("type" IN ('payment.accepted', 'payment.confirmed',
  'payment.declined', 'payment.expired', 'payment.unconfirmed', 'payment.paid_late', 'payment.underpaid', 'payment.overpaid',
  'payment.data_missing', 'refund.created', 'refund.accepted', 'refund.confirmed'));
