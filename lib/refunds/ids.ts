// A refund's id and its place in the payment table's seq, shared by Dogecoin and cash refunds.
import { randomBytes } from 'node:crypto';

/** Refund rows sit below 0 in seq (payment_refund_seq_check): nextval − 2^62 keeps them unique and in order. */
export const REFUND_SEQ_OFFSET = 4611686018427387904n;

/** 'rf_' and 128 random bits, base64url. */
export function newRefundId(): string {
  return 'rf_' + randomBytes(16).toString('base64url');
}
