/** Why a payment URI could not be parsed or built. */
export type UriErrorCode =
  | 'bad_scheme' // not dogecoin: / dogeconnect: (case-insensitive)
  | 'bad_encoding' // invalid percent-encoding or invalid UTF-8 after decoding
  | 'duplicate_param' // amount, dc or h given more than once
  | 'unsupported_required_param' // an unknown BIP21 'req-' parameter
  | 'missing_address' // coin URI without an address
  | 'bad_address' // address with characters outside the base58 alphabet
  | 'bad_amount' // amount not a positive 8-DP decimal (> 8 decimals rejected)
  | 'bad_h' // h is not Base64
  | 'h_length' // h does not decode to exactly 15 bytes
  | 'missing_path' // dedicated URI with an empty path
  | 'missing_h' // dedicated URI without h
  | 'bad_dc' // dc that cannot form an https:// envelope URL
  | 'bad_path' // dedicated-URI path that cannot form an https:// envelope URL
  | 'bad_url' // builder: envelope URL not http(s)://
  | 'bad_pubkey'; // builder: relay public key not 32 bytes

export class UriError extends Error {
  readonly code: UriErrorCode;
  constructor(code: UriErrorCode, message: string) {
    super(message);
    this.name = 'UriError';
    this.code = code;
  }
}

/** Why a Connect Envelope failed verification. */
export type EnvelopeErrorCode =
  | 'bad_envelope' // not an object with string version/payload/pubkey/sig
  | 'bad_version' // version !== "1.0"
  | 'bad_pubkey' // pubkey not hex
  | 'bad_pubkey_length' // pubkey not 32 bytes
  | 'bad_sig' // sig not hex
  | 'bad_sig_length' // sig not 64 bytes
  | 'bad_payload_base64' // payload not standard Base64
  | 'bad_hash' // SHA-256(pubkey)[0:15] does not match the QR h
  | 'bad_signature' // BIP-340 verification failed (includes pubkey not on the curve)
  | 'bad_payload_json' // payload is not UTF-8 JSON
  | 'bad_payment'; // payload JSON is not a valid Connect Payment (verifyPaymentEnvelope)

export class EnvelopeError extends Error {
  readonly code: EnvelopeErrorCode;
  /** For 'bad_payment': the schema issues. */
  readonly issues?: readonly { path: readonly PropertyKey[]; message: string }[];
  constructor(code: EnvelopeErrorCode, message: string, issues?: EnvelopeError['issues']) {
    super(message);
    this.name = 'EnvelopeError';
    this.code = code;
    if (issues) this.issues = issues;
  }
}
