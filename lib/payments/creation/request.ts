// The vendor's "start a payment" request (docs/api.md): validation and line arithmetic.
// Pure: no database, no clock. All money is bigint koinu.
import { z } from 'zod';
import { formatKoinu, parseKoinu, AmountError, MAX_MONEY } from '../../money';
import { ITEM_TYPES, MAX_DATA_BYTES, META_KEY_RE } from '../../connect';
import { decodeAddress, type Network } from '../../doge';
import { InvalidRequestError, fromZod } from '../../errors';
import { UNPRINTABLE_RE } from '../../text';

const MAX_ITEMS = 200;
const MAX_OUTPUTS = 50;
/** Dogecoin's soft dust limit: no payment total, and no p2pkh output, below 0.01 DOGE. */
export const MIN_PAYMENT_KOINU = 1_000_000n;
// C0 and C1 controls, line separators, bidi and invisible format characters: never in a signed
// string. Every string of a request (item names and notes are signed into the envelope) follows the
// one printable-text rule (lib/text/printable.ts).
const CONTROL_RE = UNPRINTABLE_RE;

const str = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const amountStr = z.string().max(40, 'too long');

const ItemIn = z
  .object({
    type: z.enum(ITEM_TYPES, { message: `type must be one of ${ITEM_TYPES.join(', ')}` }),
    id: str(128).min(1, 'required'),
    name: str(200).min(1, 'required'),
    desc: str(1000).optional(),
    icon: str(2048).optional(),
    count: z.number().int('must be an integer').min(1, 'must be >= 1').max(1_000_000, 'too large').optional(),
    unit: amountStr.optional(),
    total: amountStr.optional(),
    tax: amountStr.optional(),
  })
  .strict();

const OutputIn = z
  .object({
    type: z.enum(['p2pkh', 'data'], { message: 'type must be p2pkh or data' }).optional(),
    address: str(100).optional(),
    amount: amountStr.optional(),
    data: z
      .string()
      .max(MAX_DATA_BYTES * 2 + 2, `data must not exceed ${MAX_DATA_BYTES} bytes`)
      .optional(),
  })
  .strict();

const fiat = z
  .string()
  .regex(/^(\d{1,15}(\.\d{1,8})?)?$/, 'must be a non-negative decimal like "5.00"')
  .optional();

export const PaymentRequestSchema = z
  .object({
    items: z.array(ItemIn).min(1, 'at least one item is required').max(MAX_ITEMS, `at most ${MAX_ITEMS} items`),
    outputs: z.array(OutputIn).max(MAX_OUTPUTS, `at most ${MAX_OUTPUTS} outputs`).optional(),
    /** DOGE (default) or the store's pricing currency: then amounts are fiat (fiat-request.ts). */
    currency: z.string().max(8, 'must be DOGE or a 3-letter ISO 4217 code').optional(),
    /** How it is paid (docs/counter.md#cash): a cash sale takes its own path (lib/cash), so only "doge" reaches here. */
    tender: z.literal('doge', { message: 'must be "doge" or "cash"' }).optional(),
    vendor_order_id: str(128).optional(),
    order_reference: str(64).optional(),
    note: str(1000).optional(),
    vendor_order_url: str(2048).optional(),
    fiat_total: fiat,
    fiat_tax: fiat,
    fiat_currency: z
      .string()
      .regex(/^([A-Z]{3})?$/, 'must be a 3-letter ISO 4217 code')
      .optional(),
    timeout: z.number().int('must be an integer').min(60, 'must be >= 60 seconds').max(86_400, 'must be <= 86400 seconds').optional(),
    required_confirmations: z.number().int('must be an integer').min(0, 'must be >= 0').max(100, 'must be <= 100').optional(),
    mint_hash: z
      .string()
      .regex(/^([0-9a-fA-F]{64})?$/, 'must be 64 hex digits')
      .optional(),
    pending_token_balance_id: str(128).optional(),
    meta: z
      .record(z.string().regex(META_KEY_RE, 'meta keys must be namespaced (reverse-dotted, e.g. com.example.table)'), str(1000))
      .refine((m) => Object.keys(m).length <= 50, 'at most 50 meta keys')
      .optional(),
  })
  .strict();

export type PaymentRequest = z.infer<typeof PaymentRequestSchema>;

export interface PriceOptions {
  /** `http://` URLs are accepted only while PUBLIC_URL is http:// (development). Default false. */
  allowHttpUrls?: boolean;
}

/** The first string (value or key) under `v` holding a control character, as a field path. */
function controlCharField(v: unknown, path: string): string | null {
  if (typeof v === 'string') return CONTROL_RE.test(v) ? path : null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const f = controlCharField(v[i], `${path}[${i}]`);
      if (f) return f;
    }
    return null;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const f = CONTROL_RE.test(k)
        ? path
          ? `${path}.${k.replace(CONTROL_RE, '?')}`
          : 'body'
        : controlCharField(x, path ? `${path}.${k}` : k);
      if (f) return f;
    }
  }
  return null;
}

/** A URL a wallet may open or fetch: https:// (http:// only in development), with a host and no credentials. */
export function isWalletUrl(value: string, allowHttp: boolean): boolean {
  if (!/^https?:\/\/[^/]/i.test(value) || /\s/.test(value)) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || (allowHttp && u.protocol === 'http:')) && u.hostname !== '' && !u.username && !u.password;
  } catch {
    return false;
  }
}

function checkUrl(field: string, value: string | undefined, opts: PriceOptions): void {
  if (value === undefined || value === '' || isWalletUrl(value, !!opts.allowHttpUrls)) return;
  throw new InvalidRequestError(
    field,
    opts.allowHttpUrls ? 'must be an https:// (or, in development, http://) URL' : 'must be an https:// URL',
  );
}

/** One line as signed in the Connect Payment (8-DP strings) plus its koinu values. */
export interface PricedLine {
  type: (typeof ITEM_TYPES)[number];
  id: string;
  name: string;
  desc: string;
  icon: string;
  count: number | null;
  unit: bigint | null;
  total: bigint | null;
  tax: bigint | null;
}

export interface PricedOutput {
  type: 'p2pkh' | 'data';
  address: string | null;
  amount: bigint | null;
  data: string | null;
}

export interface PricedRequest {
  lines: PricedLine[];
  total: bigint;
  taxes: bigint;
  fees: bigint;
  quantity: number;
  /** Outputs the vendor brought (p2pkh ones checked against total); empty = relay adds one. */
  outputs: PricedOutput[];
  hasOwnP2pkh: boolean;
  /** The validated request, for the fields that need no arithmetic. */
  request: PaymentRequest;
}

function amount(field: string, s: string | undefined): bigint | null {
  if (s === undefined || s === '') return null;
  try {
    return parseKoinu(s, { allowNegative: true });
  } catch (e) {
    throw new InvalidRequestError(field, e instanceof AmountError ? e.message : 'invalid amount');
  }
}

/** Validates a vendor request and computes every line total and the payment totals. */
export function priceRequest(body: unknown, network: Network, opts: PriceOptions = {}): PricedRequest {
  const req = validRequest(body, opts);
  const sums = priceLines(req.items);
  const { outputs, hasOwnP2pkh } = requestOutputs(req.outputs ?? [], sums.total, network);
  return { ...sums, outputs, hasOwnP2pkh, request: req };
}

/** The request's shape (zod), its text (no control characters), its URLs and its fiat fields. */
function validRequest(body: unknown, opts: PriceOptions): PaymentRequest {
  const parsed = PaymentRequestSchema.safeParse(body);
  if (!parsed.success) throw fromZod(parsed.error);
  const req = parsed.data;
  const bad = controlCharField(req, '');
  if (bad) throw new InvalidRequestError(bad, 'must not contain NUL or other control characters');
  checkUrl('vendor_order_url', req.vendor_order_url, opts);
  req.items.forEach((it, i) => checkUrl(`items[${i}].icon`, it.icon, opts));
  if ((req.fiat_total || req.fiat_tax) && !req.fiat_currency) {
    throw new InvalidRequestError('fiat_currency', 'is required when fiat_total or fiat_tax is given');
  }
  return req;
}

type Item = PaymentRequest['items'][number];
type Sums = Pick<PricedRequest, 'lines' | 'total' | 'taxes' | 'fees' | 'quantity'>;

/** Every line priced, and the payment's total, taxes, fees and quantity, each within the limits. */
function priceLines(items: Item[]): Sums {
  const lines: PricedLine[] = [];
  let total = 0n;
  let taxes = 0n;
  let fees = 0n;
  let quantity = 0;
  items.forEach((it, i) => {
    const line = priceLine(it, i);
    lines.push(line);
    if (line.total === null) return; // a signing item carries no amount
    total += line.total + (line.tax ?? 0n);
    if (line.tax !== null) taxes += line.tax;
    if (it.type === 'tax') taxes += line.total;
    if (it.type === 'fee') fees += line.total;
    if (it.type === 'item') quantity += line.count!;
  });
  if (total <= 0n) throw new InvalidRequestError('items', `the total must be greater than 0 (it is ${formatKoinu(total)})`);
  if (total < MIN_PAYMENT_KOINU) {
    throw new InvalidRequestError(
      'items',
      `the total must be at least ${formatKoinu(MIN_PAYMENT_KOINU)} DOGE, Dogecoin's dust limit (it is ${formatKoinu(total)})`,
    );
  }
  if (total > MAX_MONEY || taxes > MAX_MONEY || fees > MAX_MONEY) {
    throw new InvalidRequestError('items', `the total, taxes and fees must not exceed ${formatKoinu(MAX_MONEY)} DOGE`);
  }
  return { lines, total, taxes, fees, quantity };
}

/** One line: count × unit checked against its type's sign rules and against the `total` sent. */
function priceLine(it: Item, i: number): PricedLine {
  const f = (k: string) => `items[${i}].${k}`;
  const base = { type: it.type, id: it.id, name: it.name, desc: it.desc ?? '', icon: it.icon ?? '' };
  if (it.type === 'signing') {
    for (const k of ['count', 'unit', 'total', 'tax'] as const) {
      if (it[k] !== undefined && it[k] !== '') throw new InvalidRequestError(f(k), 'must be omitted for signing items');
    }
    return { ...base, count: null, unit: null, total: null, tax: null };
  }
  if (it.count === undefined) throw new InvalidRequestError(f('count'), 'is required');
  const unit = amount(f('unit'), it.unit);
  if (unit === null) throw new InvalidRequestError(f('unit'), 'is required');
  const tax = amount(f('tax'), it.tax);
  const lineTotal = BigInt(it.count) * unit;
  if (lineTotal > MAX_MONEY || -lineTotal > MAX_MONEY) {
    throw new InvalidRequestError(f('total'), `count × unit exceeds the maximum amount (${formatKoinu(MAX_MONEY)} DOGE)`);
  }
  if (it.type === 'discount') {
    if (unit >= 0n) throw new InvalidRequestError(f('unit'), 'a discount must be negative');
    if (tax !== null && tax !== 0n) throw new InvalidRequestError(f('tax'), 'a discount carries no tax');
  } else {
    if (unit < 0n) throw new InvalidRequestError(f('unit'), `a ${it.type} line must not be negative`);
    if (tax !== null && tax < 0n) throw new InvalidRequestError(f('tax'), 'must not be negative');
  }
  const sent = amount(f('total'), it.total);
  if (sent !== null && sent !== lineTotal) {
    throw new InvalidRequestError(f('total'), `must equal count × unit (${formatKoinu(lineTotal)})`);
  }
  return { ...base, count: it.count, unit, total: lineTotal, tax };
}

type RequestOutput = NonNullable<PaymentRequest['outputs']>[number];

/** The vendor's own outputs; p2pkh ones, if any, must sum to the total. */
function requestOutputs(list: RequestOutput[], total: bigint, network: Network): { outputs: PricedOutput[]; hasOwnP2pkh: boolean } {
  const outputs = list.map((o, i) => requestOutput(o, i, network));
  const p2pkh = outputs.filter((o) => o.type === 'p2pkh');
  const p2pkhSum = p2pkh.reduce((sum, o) => sum + o.amount!, 0n);
  const hasOwnP2pkh = p2pkh.length > 0;
  if (hasOwnP2pkh && p2pkhSum !== total) {
    throw new InvalidRequestError('outputs', `p2pkh outputs sum to ${formatKoinu(p2pkhSum)} but the total is ${formatKoinu(total)}`);
  }
  return { outputs, hasOwnP2pkh };
}

function requestOutput(o: RequestOutput, i: number, network: Network): PricedOutput {
  const f = (k: string) => `outputs[${i}].${k}`;
  const type = o.type ?? 'p2pkh';
  if (type === 'data') {
    if (o.address) throw new InvalidRequestError(f('address'), 'must be omitted for data outputs');
    if (o.amount) throw new InvalidRequestError(f('amount'), 'must be omitted for data outputs');
    const data = o.data ?? '';
    if (data === '' || !/^([0-9a-fA-F]{2})+$/.test(data)) {
      throw new InvalidRequestError(f('data'), 'must be hex with an even number of characters');
    }
    if (data.length > MAX_DATA_BYTES * 2) throw new InvalidRequestError(f('data'), `must not exceed ${MAX_DATA_BYTES} bytes`);
    return { type, address: null, amount: null, data: data.toLowerCase() };
  }
  if (o.data) throw new InvalidRequestError(f('data'), 'must be omitted for p2pkh outputs');
  if (!o.address) throw new InvalidRequestError(f('address'), 'is required for p2pkh outputs');
  try {
    const d = decodeAddress(o.address, network);
    if (d.type !== 'p2pkh') throw new Error('not p2pkh');
  } catch {
    throw new InvalidRequestError(f('address'), `is not a valid ${network.name} P2PKH address`);
  }
  const amt = amount(f('amount'), o.amount);
  if (amt === null) throw new InvalidRequestError(f('amount'), 'is required for p2pkh outputs');
  if (amt <= 0n) throw new InvalidRequestError(f('amount'), 'must be greater than 0');
  if (amt < MIN_PAYMENT_KOINU)
    throw new InvalidRequestError(f('amount'), `must be at least ${formatKoinu(MIN_PAYMENT_KOINU)} DOGE, Dogecoin's dust limit`);
  return { type: 'p2pkh', address: o.address, amount: amt, data: null };
}
