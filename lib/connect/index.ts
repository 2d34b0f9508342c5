export { EnvelopeError, UriError, type EnvelopeErrorCode, type UriErrorCode } from './errors';
export * from './schemas';
export { isRfc3339, isBase58Chars, isProvided, META_KEY_RE } from './fields';
export { schnorrPublicKey, schnorrSign, schnorrVerify } from './schnorr';
export { HASH15_LENGTH, decodeH, encodeH, pubkeyHash15 } from './keyhash';
export {
  signEnvelope,
  verifyEnvelope,
  verifyPaymentEnvelope,
  type SignedEnvelope,
  type VerifiedEnvelope,
  type VerifyEnvelopeOptions,
} from './envelope';
export {
  COIN_SCHEME,
  CONNECT_SCHEME,
  buildConnectUri,
  buildDogecoinUri,
  parsePaymentUri,
  trimEnvelopeUrl,
  type ConnectPaymentUri,
  type DogecoinUriParams,
  type ParsedPaymentUri,
  type ParsePaymentUriOptions,
  type PlainPaymentUri,
} from './uri';
export { needsConnectWallet, preferredQrForm, type QrForm, type QrFormInput, type QrFormPayment } from './qr-form';
export { constantTimeEqual, sha256d } from './bytes';
export { koinuString, tryKoinu } from './fields';
export { payloadJson } from './payload-json';
export { hexToBytesOrUndefined } from './bytes';
