// Reading the QR code (docs/protocol.md#payment-qr-uris). The parsing rules live in lib/connect's parsePaymentUri:
//  - dogecoin: with non-empty dc AND h is a DogeConnect payment; a missing or empty dc or h falls
//    back to a plain address-and-amount payment (kind 'plain');
//  - h must be Base64 (URL-safe or standard) of exactly 15 bytes, else UriError 'bad_h'/'h_length';
//  - dogeconnect: needs a path and h ('missing_path'/'missing_h');
//  - wallet leniency: amount=0 beside a valid dc and h is ignored (dc/h make it irrelevant),
//    where lib/connect's default parse (and every URI Counter builds) refuses it.
// This module adds the wallet's view: where to fetch the envelope (https://, or http:// only
// with the explicit allowHttp option for local testing).
import { parsePaymentUri, type ConnectPaymentUri, type ParsedPaymentUri } from '../connect';
import { WalletError } from './errors';

export type { ConnectPaymentUri, ParsedPaymentUri, PlainPaymentUri } from '../connect';

const WALLET_URI_OPTIONS = { allowZeroAmountWithConnect: true } as const;

/** Parse a scanned or pasted payment URI. Throws UriError (typed `code`) when the QR is invalid. */
export function readPaymentQr(uri: string): ParsedPaymentUri {
  return parsePaymentUri(uri, WALLET_URI_OPTIONS);
}

/** Like readPaymentQr, but a plain (fallback) URI is a WalletError 'not_connect'. */
export function readConnectQr(uri: string): ConnectPaymentUri {
  const p = readPaymentQr(uri);
  if (p.kind !== 'connect')
    throw new WalletError('not_connect', 'this is a plain dogecoin: payment without a DogeConnect envelope (dc and h)');
  return p;
}

export interface UrlOptions {
  /** Local testing only: fetch envelopes over http:// and accept an http:// relay. */
  allowHttp?: boolean;
}

/** The URL the envelope is fetched from: https:// + the trimmed URL (http:// with allowHttp). */
export function envelopeFetchUrl(qr: ConnectPaymentUri, opts: UrlOptions = {}): string {
  return (opts.allowHttp ? 'http://' : 'https://') + qr.trimmedUrl;
}

/** Refuse a non-https URL unless allowHttp. */
export function requireSecureUrl(url: string, what: string, opts: UrlOptions = {}): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new WalletError('insecure_url', `${what} is not a valid URL`);
  }
  if (u.protocol === 'https:') return u;
  if (u.protocol === 'http:' && opts.allowHttp) return u;
  throw new WalletError('insecure_url', `${what} must use https:// (allowHttp is for local testing only)`);
}
