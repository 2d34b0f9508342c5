// lib/relay: the wallet-facing relay (docs/relay.md): the stored envelope at /dc/<id>, the checks
// and broadcast of POST /relay/pay, and /relay/status. It decides no payment state itself: the
// claim, the acceptance and the release are lib/payments' commands.
export { submitPayment, queryStatus, broadcastClaimed, type RelayAnswer, type OtherSubmissions } from './pay';
export { loadEnvelope, loadStatusRow } from './hot-reads';
export { decodeSubmittedTx, checkOutputs, checkFee } from './tx-checks';
