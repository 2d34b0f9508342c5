// Typed errors of the wallet SDK. QR problems are lib/connect's UriError and envelope problems
// its EnvelopeError (re-exported from lib/wallet); everything else is a WalletError with a code.
export { UriError, EnvelopeError, type UriErrorCode, type EnvelopeErrorCode } from '../connect';

export type WalletErrorCode =
  | 'not_connect' // a plain dogecoin: URI (fallback payment) where a DogeConnect payment was needed
  | 'insecure_url' // an http:// envelope or relay URL without allowHttp
  | 'fetch_failed' // the envelope could not be fetched or decoded after the retries
  | 'expired' // issued + timeout has passed (never pay after it)
  | 'bad_network' // an output address or key is not valid on the wallet's network
  | 'no_key' // a UTXO whose script no supplied key can sign
  | 'insufficient_funds' // the UTXOs do not cover outputs + fee
  | 'dust_output' // a requested output below the hard dust limit
  | 'too_large' // the transaction would exceed max_size
  | 'tx_rejected' // the relay answered 400 invalid_tx: this tx was refused, the payment is still open (pay it with another tx)
  | 'rejected' // the relay answered another 400 (invalid_outputs, expired, invalid_token, ...): final
  | 'declined' // the relay answered 403 (or a declined status): the payment is declined (final)
  | 'not_found' // the relay does not know the payment id (404)
  | 'relay_unavailable' // 500/503 or network failures after the retries
  | 'relay_error' // any other unexpected relay answer
  | 'deadline' // status polling reached its deadline
  | 'cancelled'; // the user did not confirm

export class WalletError extends Error {
  readonly code: WalletErrorCode;
  /** HTTP status of the relay answer, when there was one. */
  readonly httpStatus?: number;
  /** The relay's error code (400/404) or the declined Payment Status (403). */
  readonly detail?: unknown;
  constructor(code: WalletErrorCode, message: string, extra: { httpStatus?: number; detail?: unknown; cause?: unknown } = {}) {
    super(message, extra.cause !== undefined ? { cause: extra.cause } : undefined);
    this.name = 'WalletError';
    this.code = code;
    if (extra.httpStatus !== undefined) this.httpStatus = extra.httpStatus;
    if (extra.detail !== undefined) this.detail = extra.detail;
  }
}

export function isWalletError(e: unknown, code?: WalletErrorCode): e is WalletError {
  const ok = e instanceof WalletError || (e instanceof Error && e.name === 'WalletError' && 'code' in e);
  return ok && (code === undefined || (e as WalletError).code === code);
}
