export { EnvelopeError, UriError, type EnvelopeErrorCode, type UriErrorCode } from './errors';
export {
  ITEM_TYPES,
  MAX_DATA_BYTES,
  ConnectEnvelopeSchema,
  ConnectItemSchema,
  ConnectOutputSchema,
  ConnectPaymentSchema,
  PaymentSubmissionSchema,
  StatusQuerySchema,
  ErrorResponseSchema,
  PAYMENT_STATUSES,
  PaymentStatusSchema,
  type ConnectEnvelope,
  type ConnectItem,
  type ConnectPayment,
  type ConnectPaymentInput,
  type PaymentStatusValue,
  type PaymentStatus,
} from './schemas';
export { isRfc3339, isProvided, META_KEY_RE } from './fields';
export { schnorrPublicKey, schnorrSign, schnorrVerify } from './schnorr';
export { decodeH, encodeH, pubkeyHash15 } from './keyhash';
export { signEnvelope, verifyEnvelope, verifyPaymentEnvelope } from './envelope';
export {
  buildConnectUri,
  buildDogecoinUri,
  parsePaymentUri,
  trimEnvelopeUrl,
  type ConnectPaymentUri,
  type ParsedPaymentUri,
  type PlainPaymentUri,
} from './uri';
export { needsConnectWallet, preferredQrForm, type QrForm } from './qr-form';
export { sha256d } from './bytes';
export { koinuString, tryKoinu } from './fields';
export { payloadJson } from './payload-json';
export { hexToBytesOrUndefined } from './bytes';
