/**
 * Counter's wallet SDK: the wallet side of DogeConnect (docs/protocol.md, docs/wallet-sdk.md). Framework-free and
 * free of node:crypto, so it runs in Node and in the browser.
 *
 *   const qr = readConnectQr(scannedText);                       // UriError on an invalid QR
 *   const v = await fetchPayment(qr);                            // fetch + verify (EnvelopeError)
 *   const view = paymentDisplay(v.payment);                      // show it, ask the user
 *   const tx = buildPaymentTx(v.payment, { network: 'mainnet', utxos, keys: [wif] });
 *   const status = await submitPayment(v.payment, { tx: tx.hex, refund: myAddress });
 *   const done = await waitForStatus(v.payment.relay, v.payment.id, { txid: tx.txid, deadline: Date.now() + 600_000 });
 *   statusView(done);                                            // what to show: null where the relay did not say
 * @module
 */
export * from './errors';
export * from './retry';
export * from './qr';
export * from './envelope';
export * from './display';
export * from './tx';
export * from './relay-client';
export * from './status';
export * from './payment-schema';
export { payUri, type PayUriOptions, type PayUriResult } from './pay';
// Amounts: 8-decimal DOGE strings <-> integer koinu (bigint), for UTXO amounts and display.
export { AmountError, formatKoinu, parseKoinu, type AmountErrorCode } from '../money';
