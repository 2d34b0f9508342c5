-- Each counted tx keeps its replace-by-fee signal as the path that brought it saw it (the tx or
-- an unconfirmed ancestor signals: lib/chain/tx-facts.ts), so a block disconnected under it moves
-- its payment back to needing a confirmation in the disconnect's own transaction, without
-- waiting for the tx to be seen in the mempool again (docs/architecture.md#invariants).
--
-- Rows already there did not record it. Those still unmined were counted from a sighting that
-- raised their payment's depth if they signalled; mined ones count as final here, as before
-- this change, until the mempool shows them again after a disconnect.
ALTER TABLE "payment_tx" ADD COLUMN "signals_rbf" BOOLEAN NOT NULL DEFAULT false;
