// The store-owned queries tests/unit/store-scoped-queries.test.ts lets through, keyed
// `file#function` (or a whole file).

/**
 * Cross-store by design: each says why the query may not, or need not, name a store.
 */
export const ALLOWED = new Map<string, string>([
  // Principals are resolved here, before any store is known: the secret or cookie names the row,
  // and the row names the store the request then acts for.
  ['lib/auth/api-keys.ts#authenticateApiKey', "an API key is found by its secret's hash; its row carries the store"],
  ['lib/auth/api-keys.ts#ensureBootstrapKey', "BOOTSTRAP_API_KEY seeds the first store's key, found by its fixed id or hash"],
  ['lib/auth/terminals.ts#terminalForToken', "a till is found by its cookie's hash; its row carries the store"],
  ['lib/display/pairing.ts#displayForToken', "a customer display is found by its cookie's hash"],
  ['lib/display/pairing.ts#createPairingCode', "drops the terminal's own codes and sweeps every store's expired ones"],
  ['lib/display/pairing.ts#redeemPairingCode', "a pairing code is found by its hash; the display takes its terminal's store"],
  ['lib/auth/store-membership.ts#userStores', "a user's own memberships in every store: the store switcher lists them"],
  ['lib/api/sale-terminal.ts#saleTerminal', "a PIN session's till by id, then compared with the session's store"],
  ['lib/payments/creation/idempotency.ts#replay', "found by its unique (api key, key) pair, then compared with the caller's store"],
  // The payment id is the capability (docs/relay.md): the wallet-facing routes and the
  // customer's checkout page serve whatever store the unguessable id belongs to, and the hot
  // path reads the store from the payment row instead of adding a lookup.
  ['lib/relay/hot-reads.ts', '/relay/status reads by payment id (the capability)'],
  ['lib/payments/pay-sql.ts', '/relay/pay claims by payment id; the rows it writes take store_id from the payment'],
  ['lib/checkout/load.ts', 'the checkout page reads by payment id (the capability)'],
  ['lib/receipts/receipt.ts#loadReceipt', 'scoped by inStore for the till; by payment id for the checkout page (the capability)'],
  ['lib/live/payment-feed-db.ts', 'the live feed serves payment ids its subscribers were already allowed to see'],
  ['lib/display/cart.ts#displayRows', 'the display feed reads the terminals its subscribers were already allowed to follow'],
  // The payment writer works on a row already found in the caller's store (or by the chain
  // worker); the id is a primary key, so the store adds nothing but cost.
  ['lib/payments/apply.ts', "transitions of a row already read in the caller's scope"],
  ['lib/payments/accept-sql.ts#acceptChanged', "the accepted row by its id; what it writes copies the payment's store_id"],
  ['lib/payments/create.ts', 'the one INSERT of payment rows: callers build the row with inStore(storeId)'],
  ['lib/payments/refunds-of.ts#loadRefunds', "the refunds of payment ids already read in the caller's scope"],
  ['lib/payments/stock.ts#decidedBy', "a transition's own payment by id"],
  ['lib/refunds/create-refund.ts#lockedRefundAmount', "locks the payment refundParent found in the caller's store"],
  ['lib/refunds/cash-refund.ts#lockedCashLeft', "locks the cash sale already found in the caller's store"],
  ['lib/reports/sales-report.ts#creatorNames', "names of the API keys that made the store's own sales, by id"],
  ['lib/reports/sales-csv.ts#salesCsv', 'scoped by "store_id" = $5; its template holes (LIMIT, the cashier) do not parse alone'],
  // The chain worker reads each block and mempool tx once for every store: it matches by
  // address and payment id, and writes rows that copy the payment's store_id.
  ['lib/chain/spv/watch.ts', "the SPV filter watches every store's open addresses"],
  ['lib/chain/wallet-tracker.ts', "the watch-only wallet tracks every store's addresses from each block, read once"],
  ['lib/payments/chain-sync.ts', 'the chain worker, for every store at once'],
  ['lib/payments/chain-txs.ts', "the chain worker, for every store at once (payment_tx rows copy the payment's store_id)"],
  ['lib/payments/recompute.ts', 'the chain worker recomputes the payments its txs touched, in any store, by primary key'],
  ['lib/payments/chain-drops.ts', 'the chain worker, for every store at once'],
  ['lib/worker.ts#reconcilePending', "the worker reconciles every store's pending broadcasts"],
  // The webhook loop delivers every store's due events, each to its own store's URL and secret.
  ['lib/webhooks/delivery.ts#deliverDueEvents', "every store's due events; each goes to its own store's webhook"],
  ['lib/payments/outbox.ts', "delivery state of an event by its seq; the attempt copies the event's store_id"],
  // Start-up seeds of the first store (docs/configuration.md).
  ['lib/demo/seed-catalog.ts', 'the devnet demo catalog of the first store'],
]);

/**
 * Not scoped yet: each still reads or writes without naming its store (in a single-store
 * install everything is the first store's, so nothing leaks there). This list only shrinks.
 */
export const UNSCOPED_YET = new Set<string>([]);
