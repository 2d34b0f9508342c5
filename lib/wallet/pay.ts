// The whole wallet flow in one call: read the QR, fetch and verify the envelope, let the caller
// confirm the display model, build, sign, submit and (optionally) wait for confirmation.
import { paymentDisplay, type PaymentDisplay } from './display';
import { fetchPayment, type FetchOptions, type VerifiedPayment } from './envelope';
import { WalletError } from './errors';
import { readConnectQr } from './qr';
import { submitPayment, waitForStatus, type RelayOptions } from './relay-client';
import { buildPaymentTx, type BuildOptions, type BuiltTx } from './tx';
import type { WalletPaymentStatus } from './status';

export interface PayUriOptions extends FetchOptions, RelayOptions, BuildOptions {
  refund?: string;
  /** Called with the display model; return false to cancel (nothing is sent). */
  confirm?: (view: PaymentDisplay, verified: VerifiedPayment) => boolean | Promise<boolean>;
  /** Poll /status until confirmed, giving up at this Unix ms (default: do not wait). */
  waitUntil?: number;
  pollIntervalMs?: number;
  onStatus?: (s: WalletPaymentStatus) => void;
}

export interface PayUriResult {
  verified: VerifiedPayment;
  view: PaymentDisplay;
  tx: BuiltTx;
  /** The /pay answer. */
  submitted: WalletPaymentStatus;
  /** The final polled status, when waitUntil was given. */
  final?: WalletPaymentStatus;
}

export async function payUri(uri: string, opts: PayUriOptions): Promise<PayUriResult> {
  const verified = await fetchPayment(readConnectQr(uri), opts);
  const view = paymentDisplay(verified.payment);
  if (opts.confirm && !(await opts.confirm(view, verified))) throw new WalletError('cancelled', 'the user cancelled the payment');
  const tx = buildPaymentTx(verified.payment, opts);
  const submitted = await submitPayment(verified.payment, { tx: tx.hex, txid: tx.txid, refund: opts.refund }, opts);
  opts.onStatus?.(submitted);
  const result: PayUriResult = { verified, view, tx, submitted };
  if (opts.waitUntil !== undefined && submitted.status !== 'confirmed') {
    result.final = await waitForStatus(verified.payment.relay, verified.payment.id, {
      ...opts,
      txid: tx.txid,
      deadline: opts.waitUntil,
      intervalMs: opts.pollIntervalMs,
      onStatus: opts.onStatus,
    });
  } else if (opts.waitUntil !== undefined) result.final = submitted;
  return result;
}
