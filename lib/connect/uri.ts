import { AmountError, MAX_MONEY, formatKoinu, parseKoinu } from '../money';
import { hexToBytesOrUndefined } from './bytes';
import { UriError } from './errors';
import { isBase58Chars } from './fields';
import { decodeH, encodeH, pubkeyHash15 } from './keyhash';

// Payment QR URIs (docs/protocol.md#payment-qr-uris).
//   coin:      dogecoin:<address>?amount=<8-DP>&dc=<percent-encoded trimmed url>&h=<h>
//   dedicated: dogeconnect:<trimmed url>?h=<h>
// Query values are percent-decoded per RFC 3986: '+' is a literal plus, NOT a space
// (form encoding is not used; this keeps standard-Base64 `h` values with '+' intact).

export const COIN_SCHEME = 'dogecoin';
export const CONNECT_SCHEME = 'dogeconnect';

export type ConnectPaymentUri = {
  kind: 'connect';
  scheme: 'dogecoin' | 'dogeconnect';
  /** 'https://' + trimmedUrl: where to fetch the envelope. */
  envelopeUrl: string;
  /** The envelope URL without its scheme, as carried in `dc` or the dedicated path. */
  trimmedUrl: string;
  /** The decoded `h`: SHA-256(relay pubkey)[0:15]. */
  hash15: Uint8Array;
  /** Fallback fields, coin URI only. */
  address?: string;
  amount?: string;
  amountKoinu?: bigint;
};

export type PlainPaymentUri = {
  kind: 'plain';
  scheme: 'dogecoin';
  address: string;
  /** Canonical 8-DP string (formatKoinu) when the URI had an amount. */
  amount?: string;
  amountKoinu?: bigint;
};

export type ParsedPaymentUri = ConnectPaymentUri | PlainPaymentUri;

// ---- building ----

/** Strip the leading https:// (or http://, development only) from an envelope URL. */
export function trimEnvelopeUrl(envelopeUrl: string): string {
  const m = typeof envelopeUrl === 'string' ? /^https?:\/\/(.+)$/is.exec(envelopeUrl) : null;
  if (!m || /[\s]/.test(envelopeUrl)) throw new UriError('bad_url', 'envelope URL must start with https:// or http://');
  try {
    if (new URL(envelopeUrl).host === '') throw new Error('no host');
  } catch {
    throw new UriError('bad_url', 'envelope URL is not a valid URL');
  }
  return m[1];
}

/** Percent-encode everything except RFC 3986 unreserved characters (so '/' -> %2F, ' ' -> %20). */
function encodeQueryValue(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** Percent-encode characters that may not appear raw in a URI path ('?', '#', '%', spaces, non-ASCII, ...). */
function encodePath(s: string): string {
  let out = '';
  for (const ch of s) out += /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/.test(ch) ? ch : encodeURIComponent(ch);
  return out;
}

function pubkeyBytes(pubkey: Uint8Array | string): Uint8Array {
  const b = typeof pubkey === 'string' ? hexToBytesOrUndefined(pubkey) : pubkey;
  if (!(b instanceof Uint8Array) || b.length !== 32) throw new UriError('bad_pubkey', 'relay public key must be 32 bytes');
  return b;
}

function amountKoinu(amount: string | bigint): bigint {
  let k: bigint;
  if (typeof amount === 'bigint') k = amount;
  else {
    try {
      k = parseKoinu(amount);
    } catch (e) {
      throw new UriError('bad_amount', `bad amount: ${e instanceof AmountError ? e.message : String(e)}`);
    }
  }
  if (k <= 0n || k > MAX_MONEY) throw new UriError('bad_amount', 'amount must be greater than 0 and at most MAX_MONEY');
  return k;
}

function checkAddress(address: string): string {
  if (typeof address !== 'string' || address === '') throw new UriError('missing_address', 'address is required');
  if (!isBase58Chars(address)) throw new UriError('bad_address', 'address must contain only base58 characters');
  return address;
}

export type DogecoinUriParams = {
  address: string;
  /** 8-DP string (canonicalised in the URI, e.g. "12.250" -> "12.25") or koinu. */
  amount: string | bigint;
  envelopeUrl: string;
  /** 32-byte x-only relay key, bytes or hex. */
  pubkey: Uint8Array | string;
};

/** `dogecoin:<address>?amount=<amt>&dc=<percent-encoded trimmed url>&h=<h>` */
export function buildDogecoinUri(p: DogecoinUriParams): string {
  const address = checkAddress(p.address);
  const amount = formatKoinu(amountKoinu(p.amount));
  const dc = encodeQueryValue(trimEnvelopeUrl(p.envelopeUrl));
  const h = encodeH(pubkeyHash15(pubkeyBytes(p.pubkey)));
  return `${COIN_SCHEME}:${address}?amount=${amount}&dc=${dc}&h=${h}`;
}

/** `dogeconnect:<trimmed url>?h=<h>` */
export function buildConnectUri(p: { envelopeUrl: string; pubkey: Uint8Array | string }): string {
  const path = encodePath(trimEnvelopeUrl(p.envelopeUrl));
  const h = encodeH(pubkeyHash15(pubkeyBytes(p.pubkey)));
  return `${CONNECT_SCHEME}:${path}?h=${h}`;
}

// ---- parsing ----

function pctDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new UriError('bad_encoding', 'invalid percent-encoding');
  }
}

const KNOWN_PARAMS = ['amount', 'dc', 'h'] as const;
type Known = (typeof KNOWN_PARAMS)[number];

function parseQuery(query: string): Partial<Record<Known, string>> {
  const out: Partial<Record<Known, string>> = {};
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = pctDecode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : pctDecode(part.slice(eq + 1));
    if ((KNOWN_PARAMS as readonly string[]).includes(key)) {
      if (out[key as Known] !== undefined) throw new UriError('duplicate_param', `parameter ${key} given more than once`);
      out[key as Known] = value;
    } else if (key.startsWith('req-')) {
      // BIP21: a 'req-' parameter that is not understood makes the URI invalid
      throw new UriError('unsupported_required_param', `unsupported required parameter ${key}`);
    }
  }
  return out;
}

/** Validate a trimmed envelope URL (dc or dedicated path) and form the https:// URL. */
function envelopeUrlFrom(trimmed: string, code: 'bad_dc' | 'bad_path'): string {
  const bad = (why: string) => new UriError(code, `${code === 'bad_dc' ? 'dc' : 'path'} ${why}`);
  if (/[\s\x00-\x1f\x7f]/.test(trimmed)) throw bad('contains whitespace or control characters');
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(trimmed)) throw bad('must not include a scheme');
  if (trimmed.startsWith('/')) throw bad('must start with a host');
  const url = 'https://' + trimmed;
  try {
    if (new URL(url).host === '') throw new Error('no host');
  } catch {
    throw bad('is not a valid URL without https://');
  }
  return url;
}

function parseAmount(raw: string | undefined, zeroIsIrrelevant = false): { amount?: string; amountKoinu?: bigint } {
  if (raw === undefined || raw === '') return {};
  if (zeroIsIrrelevant) {
    let k: bigint | undefined;
    try {
      k = parseKoinu(raw);
    } catch {
      k = undefined; // amountKoinu below gives the typed error
    }
    if (k === 0n) return {};
  }
  const k = amountKoinu(raw);
  return { amount: formatKoinu(k), amountKoinu: k };
}

export type ParsePaymentUriOptions = {
  /**
   * Wallet leniency: on a dogecoin: URI with non-empty dc AND h, an `amount` of exactly zero is
   * ignored (no fallback amount) instead of refused, because dc/h make the amount irrelevant.
   * Any other bad amount is still 'bad_amount'. Off by default (URIs Counter builds stay strict).
   */
  allowZeroAmountWithConnect?: boolean;
};

/**
 * Parse a payment QR URI. Scheme matching is case-insensitive; a '#fragment' is ignored; unknown
 * parameters are ignored except BIP21 'req-*'. The address is only checked for base58 characters
 * (validate it for the network with lib/doge).
 *  - dogecoin: with non-empty dc AND h => kind 'connect' (h must be 15 bytes, else UriError);
 *    if dc or h is missing/empty => kind 'plain' (the protocol's fallback, docs/protocol.md#payment-qr-uris;
 *    the Go library errors).
 *  - dogeconnect: path and h required (missing_path / missing_h).
 */
export function parsePaymentUri(input: string, opts: ParsePaymentUriOptions = {}): ParsedPaymentUri {
  if (typeof input !== 'string') throw new UriError('bad_scheme', 'URI must be a string');
  const uri = input.trim();
  const colon = uri.indexOf(':');
  const scheme = colon > 0 ? uri.slice(0, colon).toLowerCase() : '';
  if (scheme !== COIN_SCHEME && scheme !== CONNECT_SCHEME) {
    throw new UriError('bad_scheme', `expected a ${COIN_SCHEME}: or ${CONNECT_SCHEME}: URI`);
  }
  let rest = uri.slice(colon + 1);
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const rawPath = q < 0 ? rest : rest.slice(0, q);
  const params = parseQuery(q < 0 ? '' : rest.slice(q + 1));

  if (scheme === CONNECT_SCHEME) {
    const trimmedUrl = pctDecode(rawPath);
    if (trimmedUrl === '') throw new UriError('missing_path', 'dogeconnect: URI needs the envelope URL as its path');
    if (!params.h) throw new UriError('missing_h', 'dogeconnect: URI needs an h parameter');
    const hash15 = decodeH(params.h);
    const envelopeUrl = envelopeUrlFrom(trimmedUrl, 'bad_path');
    return { kind: 'connect', scheme: CONNECT_SCHEME, envelopeUrl, trimmedUrl, hash15 };
  }

  const address = checkAddress(pctDecode(rawPath));
  const amount = parseAmount(params.amount, opts.allowZeroAmountWithConnect === true && !!params.dc && !!params.h);
  if (params.dc && params.h) {
    const hash15 = decodeH(params.h);
    const envelopeUrl = envelopeUrlFrom(params.dc, 'bad_dc');
    return { kind: 'connect', scheme: COIN_SCHEME, envelopeUrl, trimmedUrl: params.dc, hash15, address, ...amount };
  }
  return { kind: 'plain', scheme: COIN_SCHEME, address, ...amount };
}
