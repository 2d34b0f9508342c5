import * as z from 'zod';
import { formatKoinu } from '../money';
import { isHex } from './bytes';
import {
  META_KEY_RE,
  base64String,
  hexString,
  httpUrl,
  isBase58Chars,
  isProvided,
  koinuString,
  optionalCurrency,
  optionalFiatDecimal,
  optionalKoinuString,
  optionalString,
  requiredString,
  rfc3339String,
  tryKoinu,
} from './fields';

// The protocol's objects (docs/protocol.md#the-payment-object and the sections after it), with the
// stricter checks listed there (total > 0, at least one output, negative discounts). Unknown keys are
// stripped (forward compatible) except on an `unpaid` status, which has only id and status.

export const ENVELOPE_VERSION = '1.0';
export const ITEM_TYPES = ['item', 'tax', 'fee', 'shipping', 'discount', 'donation', 'signing'] as const;
export const OUTPUT_TYPES = ['p2pkh', 'data'] as const;
/** Largest data-carrier payload in bytes. */
export const MAX_DATA_BYTES = 80;

export const ItemTypeSchema = z.enum(ITEM_TYPES);

export const ConnectEnvelopeSchema = z.object({
  version: z.literal(ENVELOPE_VERSION),
  payload: base64String,
  pubkey: hexString(32),
  sig: hexString(64),
});

const SIGNING_FORBIDDEN = ['count', 'unit', 'total', 'tax'] as const;

export const ConnectItemSchema = z
  .object({
    type: ItemTypeSchema,
    id: requiredString,
    icon: optionalString,
    name: requiredString,
    desc: optionalString,
    count: z.number().int().optional(),
    unit: optionalKoinuString('any'),
    total: optionalKoinuString('any'),
    tax: optionalKoinuString('any'),
  })
  .superRefine((item, ctx) => {
    const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
    if (item.type === 'signing') {
      for (const f of SIGNING_FORBIDDEN) {
        const present = f === 'count' ? item.count !== undefined : isProvided(item[f]);
        if (present) issue(f, `${f} must be omitted for signing items`);
      }
      return;
    }
    if (item.count === undefined) issue('count', 'count is required');
    else if (item.count < 1) issue('count', 'count must be >= 1');
    if (!isProvided(item.unit)) issue('unit', 'unit is required');
    if (!isProvided(item.total)) issue('total', 'total is required');
    const unit = tryKoinu(item.unit);
    const total = tryKoinu(item.total);
    const tax = tryKoinu(item.tax);
    if (item.type === 'discount') {
      if (unit !== undefined && unit >= 0n) issue('unit', 'discount unit must be negative');
      if (total !== undefined && total >= 0n) issue('total', 'discount total must be negative');
    } else {
      if (unit !== undefined && unit < 0n) issue('unit', `${item.type} unit must not be negative`);
      if (total !== undefined && total < 0n) issue('total', `${item.type} total must not be negative`);
      if (tax !== undefined && tax < 0n) issue('tax', `${item.type} tax must not be negative`);
    }
    if (unit !== undefined && total !== undefined && item.count !== undefined && item.count >= 1) {
      const expected = BigInt(item.count) * unit;
      if (expected !== total) issue('total', `total must equal count × unit (${formatKoinu(expected)})`);
    }
  });

export const ConnectOutputSchema = z
  .object({
    // optional, "" equivalent to missing; defaults to p2pkh
    type: z
      .union([z.literal(''), z.enum(OUTPUT_TYPES)])
      .optional()
      .transform((t): (typeof OUTPUT_TYPES)[number] => t || 'p2pkh'),
    address: optionalString,
    amount: optionalKoinuString('positive'),
    data: optionalString,
  })
  .superRefine((out, ctx) => {
    const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
    if (out.type === 'p2pkh') {
      if (!isProvided(out.address)) issue('address', 'address is required for p2pkh outputs');
      else if (!isBase58Chars(out.address)) issue('address', 'address must be base58');
      if (!isProvided(out.amount)) issue('amount', 'amount is required for p2pkh outputs');
      if (isProvided(out.data)) issue('data', 'data must be omitted for p2pkh outputs');
    } else {
      if (isProvided(out.address)) issue('address', 'address must be omitted for data outputs');
      if (isProvided(out.amount)) issue('amount', 'amount must be omitted for data outputs');
      if (!isProvided(out.data)) issue('data', 'data is required for data outputs');
      else if (!isHex(out.data)) issue('data', 'data must be hex with an even number of characters');
      else if (out.data.length > MAX_DATA_BYTES * 2) issue('data', `data must not exceed ${MAX_DATA_BYTES} bytes`);
    }
  });

export const MetaSchema = z.record(
  z.string().regex(META_KEY_RE, 'meta keys must be namespaced (reverse-dotted, e.g. com.example.table)'),
  z.string(),
);

export const ConnectPaymentSchema = z
  .object({
    type: z.literal('payment'),
    id: requiredString,
    issued: rfc3339String,
    timeout: z.number().int().min(1),
    relay: httpUrl,
    relay_token: optionalString,
    fee_per_kb: koinuString('nonnegative'),
    max_size: z.number().int().min(1),
    vendor_icon: optionalString,
    vendor_name: requiredString,
    vendor_address: optionalString,
    vendor_url: optionalString,
    vendor_order_url: optionalString,
    vendor_order_id: optionalString,
    order_reference: optionalString,
    note: optionalString,
    total: koinuString('positive'),
    fees: optionalKoinuString('nonnegative'),
    taxes: optionalKoinuString('nonnegative'),
    fiat_total: optionalFiatDecimal,
    fiat_tax: optionalFiatDecimal,
    fiat_currency: optionalCurrency,
    items: z.array(ConnectItemSchema),
    outputs: z.array(ConnectOutputSchema).min(1, 'at least one output is required'),
    meta: MetaSchema.optional(),
  })
  .superRefine((p, ctx) => {
    if ((isProvided(p.fiat_total) || isProvided(p.fiat_tax)) && !isProvided(p.fiat_currency)) {
      ctx.addIssue({
        code: 'custom',
        path: ['fiat_currency'],
        message: 'fiat_currency is required when fiat_total or fiat_tax is given',
      });
    }
  });

export const PaymentSubmissionSchema = z.object({
  id: requiredString,
  tx: z.string().refine((s) => s.length > 0 && isHex(s), 'tx must be non-empty hex'),
  refund: optionalString.refine((s) => !isProvided(s) || isBase58Chars(s), 'refund must be a base58 address'),
  relay_token: optionalString,
});

export const StatusQuerySchema = z.object({ id: requiredString });

export const ERROR_CODES = ['not_found', 'expired', 'invalid_tx', 'invalid_outputs', 'invalid_token'] as const;
export const ErrorResponseSchema = z.object({ error: z.enum(ERROR_CODES), message: z.string() });

export const PAYMENT_STATUSES = ['unpaid', 'accepted', 'confirmed', 'declined'] as const;

const blocks = z.number().int().min(0);
const txid = hexString(32);
const noConfirmedAt = (s: { confirmed_at?: string }, ctx: z.core.$RefinementCtx<unknown>) => {
  if (isProvided(s.confirmed_at)) {
    ctx.addIssue({ code: 'custom', path: ['confirmed_at'], message: 'confirmed_at is only present when confirmed' });
  }
};

export const UnpaidStatusSchema = z.strictObject({ id: requiredString, status: z.literal('unpaid') });

export const AcceptedStatusSchema = z
  .object({
    id: requiredString,
    status: z.literal('accepted'),
    txid,
    required: blocks,
    confirmed: blocks,
    due_sec: blocks,
    confirmed_at: optionalString,
  })
  .superRefine(noConfirmedAt);

export const ConfirmedStatusSchema = z
  .object({
    id: requiredString,
    status: z.literal('confirmed'),
    txid,
    required: blocks,
    confirmed: blocks,
    due_sec: blocks,
    confirmed_at: rfc3339String,
  })
  .superRefine((s, ctx) => {
    if (s.confirmed < s.required) {
      ctx.addIssue({ code: 'custom', path: ['confirmed'], message: 'confirmed must be >= required when confirmed' });
    }
    if (s.due_sec !== 0) ctx.addIssue({ code: 'custom', path: ['due_sec'], message: 'due_sec must be 0 when confirmed' });
  });

export const DeclinedStatusSchema = z
  .object({
    id: requiredString,
    status: z.literal('declined'),
    reason: requiredString,
    txid: txid.optional(),
    confirmed_at: optionalString,
  })
  .superRefine(noConfirmedAt);

export const PaymentStatusSchema = z.discriminatedUnion('status', [
  UnpaidStatusSchema,
  AcceptedStatusSchema,
  ConfirmedStatusSchema,
  DeclinedStatusSchema,
]);

export type ItemType = z.infer<typeof ItemTypeSchema>;
export type ConnectEnvelope = z.infer<typeof ConnectEnvelopeSchema>;
export type ConnectItem = z.infer<typeof ConnectItemSchema>;
export type ConnectOutput = z.infer<typeof ConnectOutputSchema>;
export type ConnectOutputInput = z.input<typeof ConnectOutputSchema>;
export type ConnectPayment = z.infer<typeof ConnectPaymentSchema>;
export type ConnectPaymentInput = z.input<typeof ConnectPaymentSchema>;
export type PaymentSubmission = z.infer<typeof PaymentSubmissionSchema>;
export type StatusQuery = z.infer<typeof StatusQuerySchema>;
export type ErrorCode = (typeof ERROR_CODES)[number];
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
export type PaymentStatusValue = (typeof PAYMENT_STATUSES)[number];
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;
