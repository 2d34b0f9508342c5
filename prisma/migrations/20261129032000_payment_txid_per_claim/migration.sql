-- One tx may pay several payments (a plain-wallet tx paying two sales): each of them shows it as
-- its txid, so payment.txid is no longer unique. A tx is still claimed through /relay/pay for one
-- payment only (the claim's duplicate_tx answer, docs/relay.md): the claim inserts a pending
-- submission in the same statement, and a pending or accepted submission's txid is unique.
DROP INDEX IF EXISTS "payment_txid_key";
CREATE INDEX "payment_txid_idx" ON "payment" ("txid") WHERE "txid" IS NOT NULL;
CREATE UNIQUE INDEX "payment_submission_claimed_txid_key" ON "payment_submission" ("txid") WHERE "outcome" IN ('pending', 'accepted');
