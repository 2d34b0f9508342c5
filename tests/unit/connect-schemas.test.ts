import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  ConnectEnvelopeSchema,
  ConnectItemSchema,
  ConnectOutputSchema,
  ConnectPaymentSchema,
  ErrorResponseSchema,
  PaymentStatusSchema,
  PaymentSubmissionSchema,
  StatusQuerySchema,
  isRfc3339,
} from '../../lib/connect';

const ADDR = 'DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY';
const TXID = 'ab'.repeat(32);

function validPayment(): Record<string, unknown> {
  return {
    type: 'payment',
    id: 'pay_1QAB-POvTh2R88nybE8Wwg',
    issued: '2025-01-02T03:04:05.123Z',
    timeout: 900,
    relay: 'https://example.com/relay',
    relay_token: 'v1.abc',
    fee_per_kb: '0.01',
    max_size: 100000,
    vendor_icon: '',
    vendor_name: 'Coffee Shop',
    vendor_address: '',
    vendor_url: '',
    vendor_order_url: '',
    vendor_order_id: 'INV-42',
    order_reference: 'A073',
    note: '',
    total: '23.05',
    fees: '1',
    taxes: '1.05',
    fiat_total: '5.00',
    fiat_tax: '0.23',
    fiat_currency: 'USD',
    items: [
      { type: 'item', id: 'SKU-1', name: 'Coffee', count: 2, unit: '10.5', total: '21', tax: '1.05', desc: '', icon: '' },
      { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1', total: '1' },
      { type: 'signing', id: 'sig', name: 'Sign this' },
    ],
    outputs: [
      { type: 'p2pkh', address: ADDR, amount: '23.05' },
      { type: 'data', data: '68656c6c6f' },
    ],
    meta: { 'com.example.table': '7' },
  };
}

/** "path: message" for every issue, or [] when valid. */
function issues(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}
function expectIssue(schema: z.ZodType, value: unknown, path: string, msg?: RegExp) {
  const list = issues(schema, value);
  const hit = list.filter((s) => s.startsWith(path + ': '));
  expect(hit, `expected an issue at "${path}", got ${JSON.stringify(list)}`).not.toHaveLength(0);
  if (msg)
    expect(
      hit.some((s) => msg.test(s)),
      JSON.stringify(hit),
    ).toBe(true);
}
const item = (o: Record<string, unknown>) => ({ type: 'item', id: 'x', name: 'X', ...o });

describe('ConnectPayment', () => {
  it('accepts a complete valid payment and keeps strings verbatim', () => {
    const p = ConnectPaymentSchema.parse(validPayment());
    expect(p.total).toBe('23.05');
    expect(p.items).toHaveLength(3);
    expect(p.outputs[1]).toEqual({ type: 'data', data: '68656c6c6f' });
  });
  it('accepts a minimal payment with optional strings omitted', () => {
    const p = validPayment();
    for (const k of [
      'relay_token',
      'vendor_icon',
      'vendor_address',
      'vendor_url',
      'vendor_order_url',
      'vendor_order_id',
      'order_reference',
      'note',
      'fees',
      'taxes',
      'fiat_total',
      'fiat_tax',
      'fiat_currency',
      'meta',
    ])
      delete p[k];
    expect(issues(ConnectPaymentSchema, p)).toEqual([]);
  });
  it('treats "" optional amounts as not provided', () => {
    expect(
      issues(ConnectPaymentSchema, { ...validPayment(), fees: '', taxes: '', fiat_total: '', fiat_tax: '', fiat_currency: '' }),
    ).toEqual([]);
  });
  it('strips unknown top-level keys (forward compatible)', () => {
    const p = ConnectPaymentSchema.parse({ ...validPayment(), future_field: 1 });
    expect('future_field' in p).toBe(false);
  });
  it.each([
    ['type', 'invoice'],
    ['id', ''],
    ['issued', '2025-01-02 03:04:05'],
    ['issued', '2025-02-30T00:00:00Z'],
    ['timeout', 0],
    ['timeout', 1.5],
    ['max_size', 0],
    ['relay', 'ftp://example.com/relay'],
    ['relay', 'example.com/relay'],
    ['fee_per_kb', '-0.01'],
    ['fee_per_kb', '0.001000001'],
    ['vendor_name', ''],
    ['total', '0'],
    ['total', '-1'],
    ['total', '1.123456789'],
    ['total', 23.05],
    ['fees', '-1'],
    ['taxes', 'abc'],
    ['fiat_total', '5,00'],
    ['fiat_currency', 'usd'],
    ['fiat_currency', 'US'],
    ['outputs', []],
    ['items', undefined],
  ])('rejects %s = %j', (field, value) => {
    expectIssue(ConnectPaymentSchema, { ...validPayment(), [field]: value }, field);
  });
  it('accepts timeout = 1, max_size = 1, fee_per_kb = 0', () => {
    expect(issues(ConnectPaymentSchema, { ...validPayment(), timeout: 1, max_size: 1, fee_per_kb: '0' })).toEqual([]);
  });
  it.each(['fiat_total', 'fiat_tax'])('requires fiat_currency when %s is given', (f) => {
    const p = { ...validPayment(), fiat_total: '', fiat_tax: '', fiat_currency: '', [f]: '1.00' };
    expectIssue(ConnectPaymentSchema, p, 'fiat_currency', /required/);
    const q = { ...validPayment(), fiat_total: '', fiat_tax: '', [f]: '1.00' };
    delete (q as Record<string, unknown>).fiat_currency;
    expectIssue(ConnectPaymentSchema, q, 'fiat_currency', /required/);
  });
  it('validates meta keys and values', () => {
    expect(issues(ConnectPaymentSchema, { ...validPayment(), meta: { 'org.example.a_b-c': '', 'io.x': 'y' } })).toEqual([]);
    for (const key of ['table', '.com.example', 'com..example', 'com.example.', 'com example.x', '1com.example']) {
      expect(issues(ConnectPaymentSchema, { ...validPayment(), meta: { [key]: '1' } }).length, key).toBeGreaterThan(0);
    }
    expectIssue(ConnectPaymentSchema, { ...validPayment(), meta: { 'com.example.n': 7 } }, 'meta.com.example.n');
  });
  it('reports item and output issues with their array paths', () => {
    const p = validPayment();
    (p.items as unknown[])[1] = item({ type: 'fee', count: 1, unit: '1', total: '2' });
    (p.outputs as unknown[])[0] = { address: ADDR };
    const list = issues(ConnectPaymentSchema, p);
    expect(list.some((s) => s.startsWith('items.1.total:'))).toBe(true);
    expect(list.some((s) => s.startsWith('outputs.0.amount:'))).toBe(true);
  });
});

describe('ConnectItem', () => {
  it('accepts every non-signing type with count × unit = total', () => {
    for (const type of ['item', 'tax', 'fee', 'shipping', 'donation']) {
      expect(issues(ConnectItemSchema, item({ type, count: 3, unit: '0.33333333', total: '0.99999999' }))).toEqual([]);
    }
  });
  it('rejects an unknown type', () => {
    expectIssue(ConnectItemSchema, item({ type: 'gift', count: 1, unit: '1', total: '1' }), 'type');
  });
  it('requires total == count × unit exactly (in koinu)', () => {
    expectIssue(ConnectItemSchema, item({ count: 3, unit: '0.33333333', total: '1' }), 'total', /0\.99999999/);
    expectIssue(ConnectItemSchema, item({ count: 2, unit: '10.5', total: '21.00000001' }), 'total', /count × unit/);
    expect(issues(ConnectItemSchema, item({ count: 2, unit: '10.50', total: '21.0' }))).toEqual([]);
  });
  it.each([
    [{ unit: '1', total: '1' }, 'count', /required/],
    [{ count: 0, unit: '1', total: '0' }, 'count', />= 1/],
    [{ count: -1, unit: '1', total: '-1' }, 'count', />= 1/],
    [{ count: 1.5, unit: '1', total: '1.5' }, 'count', undefined],
    [{ count: 1, total: '1' }, 'unit', /required/],
    [{ count: 1, unit: '', total: '1' }, 'unit', /required/],
    [{ count: 1, unit: '1' }, 'total', /required/],
    [{ count: 1, unit: '1.000000001', total: '1' }, 'unit', /decimal/],
    [{ count: 1, unit: '-1', total: '-1' }, 'unit', /negative/],
    [{ count: 1, unit: '1', total: '1', tax: '-0.1' }, 'tax', /negative/],
    [{ count: 1, unit: '1', total: '1', tax: '1e2' }, 'tax', /exponent/],
  ])('non-signing item %j: issue at %s', (o, path, msg) => {
    expectIssue(ConnectItemSchema, item(o), path, msg);
  });
  it('requires negative unit and total for discounts; tax may be any sign', () => {
    expect(issues(ConnectItemSchema, item({ type: 'discount', count: 2, unit: '-1.5', total: '-3', tax: '-0.3' }))).toEqual([]);
    expectIssue(ConnectItemSchema, item({ type: 'discount', count: 1, unit: '1', total: '1' }), 'unit', /negative/);
    expectIssue(ConnectItemSchema, item({ type: 'discount', count: 1, unit: '1', total: '1' }), 'total', /negative/);
    expectIssue(ConnectItemSchema, item({ type: 'discount', count: 1, unit: '0', total: '0' }), 'unit', /negative/);
    expectIssue(ConnectItemSchema, item({ type: 'discount', count: 2, unit: '-1', total: '-1' }), 'total', /count × unit/);
  });
  it('signing items must omit count, unit, total and tax ("" counts as omitted)', () => {
    expect(issues(ConnectItemSchema, { type: 'signing', id: 's', name: 'S' })).toEqual([]);
    expect(issues(ConnectItemSchema, { type: 'signing', id: 's', name: 'S', unit: '', total: '', tax: '' })).toEqual([]);
    for (const [f, v] of [
      ['count', 1],
      ['unit', '1'],
      ['total', '1'],
      ['tax', '0'],
    ] as const) {
      expectIssue(ConnectItemSchema, { type: 'signing', id: 's', name: 'S', [f]: v }, f, /omitted/);
    }
  });
  it('requires id and name', () => {
    expectIssue(ConnectItemSchema, { type: 'signing', id: '', name: 'S' }, 'id');
    expectIssue(ConnectItemSchema, { type: 'signing', id: 's' }, 'name');
  });
});

describe('ConnectOutput', () => {
  it('defaults type to p2pkh when omitted or ""', () => {
    expect(ConnectOutputSchema.parse({ address: ADDR, amount: '1' }).type).toBe('p2pkh');
    expect(ConnectOutputSchema.parse({ type: '', address: ADDR, amount: '1' }).type).toBe('p2pkh');
  });
  it.each([
    [{ amount: '1' }, 'address', /required/],
    [{ address: '', amount: '1' }, 'address', /required/],
    [{ address: 'D0OIl', amount: '1' }, 'address', /base58/],
    [{ address: ADDR }, 'amount', /required/],
    [{ address: ADDR, amount: '0' }, 'amount', /greater than 0/],
    [{ address: ADDR, amount: '-1' }, 'amount', /greater than 0/],
    [{ address: ADDR, amount: '1', data: '00' }, 'data', /omitted/],
    [{ type: 'p2sh', address: ADDR, amount: '1' }, 'type', undefined],
  ])('p2pkh %j: issue at %s', (o, path, msg) => {
    expectIssue(ConnectOutputSchema, o, path, msg);
  });
  it('data outputs: even-length hex up to 80 bytes, either case', () => {
    expect(issues(ConnectOutputSchema, { type: 'data', data: 'aB'.repeat(80) })).toEqual([]);
    expect(issues(ConnectOutputSchema, { type: 'data', data: '00', address: '', amount: '' })).toEqual([]);
    expectIssue(ConnectOutputSchema, { type: 'data', data: '00'.repeat(81) }, 'data', /80 bytes/);
    expectIssue(ConnectOutputSchema, { type: 'data', data: 'abc' }, 'data', /even/);
    expectIssue(ConnectOutputSchema, { type: 'data', data: 'zz' }, 'data', /hex/);
    expectIssue(ConnectOutputSchema, { type: 'data', data: '0x00' }, 'data', /hex/);
    expectIssue(ConnectOutputSchema, { type: 'data' }, 'data', /required/);
    expectIssue(ConnectOutputSchema, { type: 'data', data: '' }, 'data', /required/);
    expectIssue(ConnectOutputSchema, { type: 'data', data: '00', address: ADDR }, 'address', /omitted/);
    expectIssue(ConnectOutputSchema, { type: 'data', data: '00', amount: '1' }, 'amount', /omitted/);
  });
});

describe('PaymentStatus', () => {
  const accepted = { id: 'p', status: 'accepted', txid: TXID, required: 1, confirmed: 0, due_sec: 60 };
  const confirmed = { ...accepted, status: 'confirmed', confirmed: 1, due_sec: 0, confirmed_at: '2025-01-02T03:05:05Z' };
  it('accepts each valid status', () => {
    expect(issues(PaymentStatusSchema, { id: 'p', status: 'unpaid' })).toEqual([]);
    expect(issues(PaymentStatusSchema, accepted)).toEqual([]);
    expect(issues(PaymentStatusSchema, confirmed)).toEqual([]);
    expect(issues(PaymentStatusSchema, { ...confirmed, confirmed: 7, required: 6 })).toEqual([]);
    expect(issues(PaymentStatusSchema, { ...confirmed, confirmed: 0, required: 0 })).toEqual([]);
    expect(issues(PaymentStatusSchema, { id: 'p', status: 'declined', reason: 'double spend' })).toEqual([]);
  });
  it('unpaid has only id and status', () => {
    expect(issues(PaymentStatusSchema, { id: 'p', status: 'unpaid', txid: TXID }).length).toBeGreaterThan(0);
    expectIssue(PaymentStatusSchema, { status: 'unpaid' }, 'id');
  });
  it('rejects unknown status', () => {
    expect(issues(PaymentStatusSchema, { id: 'p', status: 'pending' }).length).toBeGreaterThan(0);
  });
  it.each(['txid', 'required', 'confirmed', 'due_sec'])('accepted and confirmed require %s', (f) => {
    for (const base of [accepted, confirmed]) {
      const s: Record<string, unknown> = { ...base };
      delete s[f];
      expectIssue(PaymentStatusSchema, s, f);
    }
  });
  it('validates txid as 64 hex and counts as non-negative integers', () => {
    expectIssue(PaymentStatusSchema, { ...accepted, txid: 'ab'.repeat(31) }, 'txid');
    expectIssue(PaymentStatusSchema, { ...accepted, txid: 'zz'.repeat(32) }, 'txid');
    expectIssue(PaymentStatusSchema, { ...accepted, confirmed: -1 }, 'confirmed');
    expectIssue(PaymentStatusSchema, { ...accepted, due_sec: 1.5 }, 'due_sec');
  });
  it('confirmed requires confirmed_at, confirmed >= required and due_sec 0', () => {
    const noAt: Record<string, unknown> = { ...confirmed };
    delete noAt.confirmed_at;
    expectIssue(PaymentStatusSchema, noAt, 'confirmed_at');
    expectIssue(PaymentStatusSchema, { ...confirmed, confirmed_at: 'yesterday' }, 'confirmed_at');
    expectIssue(PaymentStatusSchema, { ...confirmed, required: 6, confirmed: 5 }, 'confirmed', />= required/);
    expectIssue(PaymentStatusSchema, { ...confirmed, due_sec: 60 }, 'due_sec', /0/);
  });
  it('confirmed_at is only present when confirmed', () => {
    expectIssue(PaymentStatusSchema, { ...accepted, confirmed_at: '2025-01-02T03:05:05Z' }, 'confirmed_at');
    expect(issues(PaymentStatusSchema, { ...accepted, confirmed_at: '' })).toEqual([]);
  });
  it('declined requires a reason', () => {
    expectIssue(PaymentStatusSchema, { id: 'p', status: 'declined' }, 'reason');
    expectIssue(PaymentStatusSchema, { id: 'p', status: 'declined', reason: '' }, 'reason');
  });
});

describe('relay request and error objects', () => {
  it('PaymentSubmission', () => {
    expect(issues(PaymentSubmissionSchema, { id: 'p', tx: '0100', refund: ADDR, relay_token: 't' })).toEqual([]);
    expect(issues(PaymentSubmissionSchema, { id: 'p', tx: 'AbCd', refund: '' })).toEqual([]);
    expectIssue(PaymentSubmissionSchema, { id: '', tx: '00' }, 'id');
    expectIssue(PaymentSubmissionSchema, { id: 'p', tx: '' }, 'tx');
    expectIssue(PaymentSubmissionSchema, { id: 'p', tx: '0g' }, 'tx');
    expectIssue(PaymentSubmissionSchema, { id: 'p', tx: '000' }, 'tx');
    expectIssue(PaymentSubmissionSchema, { id: 'p' }, 'tx');
    expectIssue(PaymentSubmissionSchema, { id: 'p', tx: '00', refund: 'not an address' }, 'refund');
  });
  it('StatusQuery', () => {
    expect(issues(StatusQuerySchema, { id: 'p' })).toEqual([]);
    expectIssue(StatusQuerySchema, { id: '' }, 'id');
    expectIssue(StatusQuerySchema, {}, 'id');
  });
  it('ErrorResponse uses the spec error codes', () => {
    for (const error of ['not_found', 'expired', 'invalid_tx', 'invalid_outputs', 'invalid_token']) {
      expect(issues(ErrorResponseSchema, { error, message: 'x' })).toEqual([]);
    }
    expectIssue(ErrorResponseSchema, { error: 'invalid_request', message: 'x' }, 'error');
    expectIssue(ErrorResponseSchema, { error: 'expired' }, 'message');
  });
});

describe('ConnectEnvelope', () => {
  const env = { version: '1.0', payload: 'e30=', pubkey: 'ab'.repeat(32), sig: 'cd'.repeat(64) };
  it('accepts a well-formed envelope', () => {
    expect(issues(ConnectEnvelopeSchema, env)).toEqual([]);
  });
  it.each([
    ['version', '1.1'],
    ['version', 1],
    ['pubkey', 'ab'.repeat(33)],
    ['pubkey', '02' + 'ab'.repeat(32)],
    ['pubkey', 'zz'.repeat(32)],
    ['sig', 'cd'.repeat(63)],
    ['payload', ''],
    ['payload', 'e30-'],
    ['payload', 'e30=='],
    ['payload', 'not base64!'],
  ])('rejects %s = %j', (f, v) => {
    expectIssue(ConnectEnvelopeSchema, { ...env, [f]: v }, f);
  });
});

describe('isRfc3339', () => {
  it.each([
    '2025-01-02T03:04:05Z',
    '2025-01-02t03:04:05z',
    '2025-01-02T03:04:05.123456789+05:30',
    '2024-02-29T00:00:00-00:00',
    '2016-12-31T23:59:60Z',
    '2000-02-29T00:00:00Z',
  ])('accepts %s', (s) => expect(isRfc3339(s)).toBe(true));
  it.each([
    '2025-01-02',
    '2025-01-02T03:04:05',
    '2025-01-02 03:04:05Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-01-02T24:00:00Z',
    '2025-01-02T03:04:05+24:00',
    '2025-01-02T03:04:05.Z',
    ' 2025-01-02T03:04:05Z',
  ])('rejects %j', (s) => expect(isRfc3339(s)).toBe(false));
});
