-- What the payment table promises, held by the database whatever path writes a row
-- (docs/architecture.md#invariants).
--
-- Counts and amounts are never negative: confirmations are counted from 0, the required depth
-- is 0..100 by the request's rules, and a total and an amount paid are sums of koinu. Every
-- version has written them so, so these are checked against the rows already there.
ALTER TABLE "payment" ADD CONSTRAINT "payment_counts_nonnegative"
  CHECK ("confirmations" >= 0 AND "required_confirmations" >= 0);
ALTER TABLE "payment" ADD CONSTRAINT "payment_amount_paid_nonnegative"
  CHECK ("amount_paid" >= 0 AND "total" >= 0);

-- `confirmed` means confirmations >= required. A merchant's "Mark settled" is the one exception
-- by the state table: the merchant decided, not the chain, so such a payment may be confirmed
-- at any depth (docs/api.md, mark). A 0-conf payment (required 0) is confirmed at 0.
--
-- NOT VALID: rows already there are not checked now, every row written from now on is. Before
-- this change a disconnected block zeroed the count in one write and the next recount moved the
-- status in another; a process stopped between the two left a row confirmed below its depth.
-- The worker's first recount reads every accepted and confirmed payment and moves such a row
-- through the state table, with its payment.unconfirmed event, which SQL here cannot write.
ALTER TABLE "payment" ADD CONSTRAINT "payment_confirmed_depth"
  CHECK ("status" <> 'confirmed' OR COALESCE("exception", '') = 'marked_settled' OR "confirmations" >= "required_confirmations")
  NOT VALID;
