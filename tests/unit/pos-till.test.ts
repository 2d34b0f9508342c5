// Pure logic behind "the till never loses a sale" (docs/using-counter.md#the-till-pos): typed amounts with a decimal
// comma, the physical keyboard, tax percent, today's sales from the vendor API, charge again,
// and what the payment screen shows while live updates are down.
import { describe, expect, it } from 'vitest';
import { keyboardKeypadKey, keypadKoinu, keypadPress, taxPercentBp, dogeText } from '@/lib/pos/cart';
import { parseKoinuInput, AmountError } from '@/lib/money';
import { saleFromView, saleStateOf, canReopen } from '@/lib/pos/sales';
import { chargeAgainRequest, type StoredSale } from '@/lib/pos/charge-again';
import { okToHandOver, posShownState, posStatusMessage, saleInProgress } from '@/lib/pos/payment-state';
import { percentToBp } from '@/lib/backoffice/catalog';

describe('decimal comma', () => {
  it('parseKoinuInput takes "15,50" as 15.5 and refuses ambiguous groupings', () => {
    expect(parseKoinuInput('15,50')).toBe(1_550_000_000n);
    expect(parseKoinuInput(' 12.5 ')).toBe(1_250_000_000n);
    expect(parseKoinuInput(',5')).toBe(50_000_000n);
    expect(() => parseKoinuInput('1,234.50')).toThrow(AmountError);
    expect(() => parseKoinuInput('1,234,5')).toThrow(AmountError);
    expect(() => parseKoinuInput('-1,5')).toThrow(AmountError);
    expect(parseKoinuInput('-1,5', { allowNegative: true })).toBe(-150_000_000n);
  });
  it('the keypad and the catalog tax field accept it', () => {
    expect(keypadKoinu('15,50')).toBe(1_550_000_000n);
    expect(keypadPress('15', ',')).toBe('15.');
    expect(taxPercentBp('8,25')).toBe(825);
    expect(percentToBp('tax_rate', '8,25')).toBe(825);
  });
});

describe('physical keyboard', () => {
  it('maps digits, "." and ",", Backspace and Enter; ignores the rest', () => {
    const typed = ['1', '2', ',', '5'].map(keyboardKeypadKey).reduce<string>((e, k) => keypadPress(e, k!), '');
    expect(typed).toBe('12.5');
    expect(keyboardKeypadKey('Backspace')).toBe('⌫');
    expect(keypadPress('12.5', keyboardKeypadKey('Backspace')!)).toBe('12.');
    expect(keyboardKeypadKey('Enter')).toBe('enter');
    for (const k of ['a', 'Tab', 'ArrowLeft', '-', ' ', 'e']) expect(keyboardKeypadKey(k)).toBeNull();
  });
});

describe('tax percent of a keypad item', () => {
  it('is basis points, 0–100 %, at most 2 decimals', () => {
    expect(taxPercentBp('')).toBe(0);
    expect(taxPercentBp('7.5')).toBe(750);
    expect(taxPercentBp('100')).toBe(10_000);
    expect(taxPercentBp('100.01')).toBeNull();
    expect(taxPercentBp('7.555')).toBeNull();
    expect(taxPercentBp('x')).toBeNull();
  });
});

describe("today's sales from GET /api/v1/payments", () => {
  const view = {
    id: 'p1',
    status: 'unpaid',
    total: '12.5',
    created_at: '2026-11-24T10:00:00.000Z',
    expired: false,
    exception: null,
    payment: { order_reference: 'POS-1', fiat_total: '2.50', fiat_currency: 'USD' },
  };
  it("maps the view to a sale with the cashier state, its time in the store's zone", () => {
    expect(saleFromView(view, 'America/New_York')).toEqual({
      id: 'p1',
      total: '12.5',
      status: 'unpaid',
      state: 'unpaid',
      fiatTotal: '2.50',
      fiatCurrency: 'USD',
      orderReference: 'POS-1',
      createdAt: view.created_at,
      timeText: '05:00 EST',
    });
    expect(saleStateOf({ status: 'declined', exception: 'cancelled' })).toBe('cancelled');
    expect(saleStateOf({ status: 'unpaid', expired: true })).toBe('expired');
    expect(saleStateOf({ status: 'confirmed' })).toBe('confirmed');
  });
  it('only a waiting sale can be reopened', () => {
    expect(canReopen({ state: 'unpaid' })).toBe(true);
    for (const st of ['expired', 'cancelled', 'confirmed', 'accepted']) expect(canReopen({ state: st })).toBe(false);
  });
});

describe('charge again (built from the stored lines, lib/pos/charge-again)', () => {
  type L = StoredSale['lines'][number];
  const ln = (
    type: string,
    id: string,
    count: number | null,
    unit: bigint | null,
    tax: bigint | null,
    fiatUnit: bigint | null = null,
    fiatTax: bigint | null = null,
  ): L => ({
    type,
    itemId: id,
    name: id,
    description: '',
    icon: '',
    count,
    unit,
    total: unit !== null && count !== null ? BigInt(count) * unit : null,
    tax,
    fiatUnit,
    fiatTax,
  });
  const sale = (lines: L[], extra: Partial<StoredSale> = {}): StoredSale => ({
    status: 'unpaid',
    note: '',
    fiatTotal: '',
    fiatTax: '',
    fiatCurrency: '',
    rateValue: '',
    lines,
    ...extra,
  });

  it("a DOGE sale: the same DOGE lines, a new order reference, no zero taxes; the vendor's fiat fields kept", () => {
    const body = chargeAgainRequest(
      sale(
        [
          ln('item', 'SAN', 2, 725_000_000n, 145_000_000n),
          ln('item', 'COF', 1, 250_000_000n, 0n),
          ln('discount', 'discount', 1, -100_000_000n, null),
        ],
        { fiatTotal: '3.10', fiatTax: '0.29', fiatCurrency: 'USD' },
      ),
      'POS-NEW',
    );
    expect(body).toEqual({
      items: [
        { type: 'item', id: 'SAN', name: 'SAN', count: 2, unit: '7.25', tax: '1.45' },
        { type: 'item', id: 'COF', name: 'COF', count: 1, unit: '2.5' },
        { type: 'discount', id: 'discount', name: 'discount', count: 1, unit: '-1' },
      ],
      order_reference: 'POS-NEW',
      fiat_total: '3.10',
      fiat_tax: '0.29',
      fiat_currency: 'USD',
    });
  });

  it('a USD sale: its USD lines as priced, "currency": "USD", no DOGE amounts and no old fiat sums (the server prices them at today\'s rate)', () => {
    const body = chargeAgainRequest(
      sale(
        [
          ln('item', 'MUF', 3, 2_842_857_143n, 685_714_286n, 199n, 48n),
          ln('discount', 'disc', 1, -714_285_714n, null, -50n, null),
          ln('signing', 'sig', null, null, null),
        ],
        { fiatTotal: '5.95', fiatTax: '0.48', fiatCurrency: 'USD', rateValue: '0.07', note: 'table 4' },
      ),
      'POS-2',
    );
    expect(body).toEqual({
      currency: 'USD',
      order_reference: 'POS-2',
      note: 'table 4',
      items: [
        { type: 'item', id: 'MUF', name: 'MUF', count: 3, unit: '1.99', tax: '0.48' },
        { type: 'discount', id: 'disc', name: 'disc', count: 1, unit: '-0.50' },
        { type: 'signing', id: 'sig', name: 'sig' },
      ],
    });
  });

  it('refuses a paid sale, an empty one, and a fiat sale whose fiat lines were never stored (no silent DOGE fallback)', () => {
    expect(() => chargeAgainRequest(sale([ln('item', 'A', 1, 1n, null)], { status: 'confirmed' }), 'X')).toThrow(/already paid/);
    expect(() => chargeAgainRequest(sale([]), 'X')).toThrow(/no lines/);
    expect(() =>
      chargeAgainRequest(
        sale([ln('item', 'A', 1, 100_000_000n, null)], { fiatTotal: '0.07', fiatCurrency: 'USD', rateValue: '0.07' }),
        'X',
      ),
    ).toThrow(/priced in USD/);
  });
});

describe('status while live updates are down', () => {
  it('a payment that is not final is unknown; a final one stays', () => {
    expect(posShownState('waiting', false)).toBe('unknown');
    expect(posShownState('accepted', false)).toBe('unknown');
    expect(posShownState('waiting', true)).toBe('waiting');
    expect(posShownState('confirmed', false)).toBe('confirmed');
    expect(posShownState('expired', false)).toBe('expired');
  });
  it('OK to hand over only on confirmed; leaving asks while the sale is in progress', () => {
    expect(okToHandOver('confirmed')).toBe(true);
    for (const st of ['accepted', 'waiting', 'unknown'] as const) expect(okToHandOver(st)).toBe(false);
    for (const st of ['waiting', 'accepted', 'unknown'] as const) expect(saleInProgress(st)).toBe(true);
    for (const st of ['confirmed', 'expired', 'cancelled', 'declined'] as const) expect(saleInProgress(st)).toBe(false);
  });
  it('never shows more confirmations than required as "N of M"', () => {
    expect(posStatusMessage('accepted', { status: 'accepted', confirmed: 4, required: 1 })).toEqual({
      title: 'accepted',
      detail: 'acceptedDone',
      values: { n: 4 },
    });
    expect(posStatusMessage('accepted', { status: 'accepted', confirmed: 0, required: 2 })).toEqual({
      title: 'accepted',
      detail: 'acceptedProgress',
      values: { n: 0, m: 2 },
    });
  });
});

describe('one DOGE formatter', () => {
  it('writes Ð with two decimals at least', () => {
    expect(dogeText(1_250_000_000n)).toBe('Ð 12.50');
    expect(dogeText('12.5')).toBe('Ð 12.50');
  });
});
