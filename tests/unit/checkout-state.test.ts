// The customer's checkout page, its pure parts (docs/using-counter.md#the-customers-checkout-page-checkoutid, docs/using-counter.md#the-till-pos, docs/api.md#payments-from-any-wallet): which QR form a payment
// opens on, what state the page shows, which fields of the vendor's view reach the customer, and
// the QR code's drawing rule (error correction M, a 4-module quiet zone, whole modules ≥ 4 px).
import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { preferredQrForm } from '@/lib/connect/qr-form';
import { checkoutLive, checkoutShown, asksForMoney, isFinalCheckout } from '@/lib/checkout/state';
import { qrImage, QR_MIN_MODULE_PX, QR_QUIET_ZONE } from '@/lib/checkout/qr';
import { webUrl } from '@/lib/checkout/load';

const ADDR = 'mvqE4HFWVWospFhSyY6YMy9NmsF67qhT3E';
const URI = `dogecoin:${ADDR}?amount=12.5&dc=shop.example%2Fdc%2Fabc&h=ZRSS6AhItVYhubpKAcJ0`;
const T0 = Date.parse('2026-11-27T10:00:00Z');
const EXP = T0 + 900_000;
const live = (o: Partial<ReturnType<typeof checkoutLive>> = {}) => ({
  status: 'unpaid',
  exception: null,
  expired: false,
  required: 1,
  confirmed: 0,
  amount_paid: '0',
  amount_due: '12.5',
  ...o,
});

describe('preferredQrForm', () => {
  it('dogecoin: for plain payments; dogeconnect: with data outputs or signing items', () => {
    expect(preferredQrForm({ items: [{ type: 'item' }, { type: 'fee' }], outputs: [{ type: 'p2pkh' }] })).toBe('dogecoin');
    expect(preferredQrForm({ items: [], outputs: [{ type: 'p2pkh' }, { type: 'data' }] })).toBe('dogeconnect');
    expect(preferredQrForm({ items: [{ type: 'item' }, { type: 'signing' }], outputs: [{ type: 'p2pkh' }] })).toBe('dogeconnect');
    expect(preferredQrForm({})).toBe('dogecoin');
  });
});

describe('checkoutLive: only the customer fields', () => {
  it('drops everything else of the vendor view', () => {
    const v = checkoutLive({
      ...live(),
      id: 'x',
      refunds: [{ id: 'rf_1' }],
      decision: { note: 'secret' },
      refund_address: 'n…',
      payment: { note: 'n', meta: {} },
      txids: ['a'],
      uri: URI,
      reason: 'r',
      amount_refunded: '1',
    });
    expect(Object.keys(v).sort()).toEqual(['amount_due', 'amount_paid', 'confirmed', 'exception', 'expired', 'required', 'status']);
  });
  it('odd values become safe defaults, never thrown', () => {
    expect(checkoutLive({ status: 5, required: -1, confirmed: 1.5, amount_paid: null })).toEqual(live({ required: 0, amount_due: '0' }));
  });
});

describe('checkoutShown', () => {
  const shown = (o: Partial<ReturnType<typeof checkoutLive>>, now = T0) => checkoutShown(live(o), '12.5', URI, EXP, now);
  it('waiting, then expired by the clock or the flag', () => {
    expect(shown({}).state).toBe('waiting');
    expect(shown({}, EXP).state).toBe('waiting'); // strictly past expires_at (lib/pos/payment-state.ts)
    expect(shown({}, EXP + 1).state).toBe('expired');
    expect(shown({ expired: true }).state).toBe('expired');
  });
  it('underpaid: what is missing and a plain dogecoin: URI for the rest', () => {
    const s = shown({ exception: 'underpaid', amount_paid: '5', amount_due: '7.5' });
    expect(s.state).toBe('underpaid');
    expect(s.rest).toEqual({ paid: 500_000_000n, due: 750_000_000n, total: 1_250_000_000n, restUri: `dogecoin:${ADDR}?amount=7.5` });
  });
  it('data missing: nothing more to pay', () => {
    const s = shown({ exception: 'data_missing', amount_paid: '12.5', amount_due: '0' });
    expect(s).toEqual({ state: 'data_missing', rest: null });
    expect(asksForMoney(s.state)).toBe(false);
  });
  it('accepted, paid (confirmed, marked settled too), cancelled, declined', () => {
    expect(shown({ status: 'accepted' }).state).toBe('accepted');
    expect(shown({ status: 'confirmed' }).state).toBe('paid');
    expect(shown({ status: 'confirmed', exception: 'marked_settled' }).state).toBe('paid');
    expect(shown({ status: 'declined', exception: 'cancelled' }).state).toBe('cancelled');
    expect(shown({ status: 'declined', exception: 'double_spent' }).state).toBe('declined');
    for (const s of ['paid', 'expired', 'cancelled', 'declined'] as const) expect(isFinalCheckout(s)).toBe(true);
    for (const s of ['waiting', 'underpaid', 'accepted', 'data_missing'] as const) expect(isFinalCheckout(s)).toBe(false);
  });
});

describe('qrImage: the till rule (docs/using-counter.md#the-till-pos)', () => {
  it('level M, a quiet zone of 4 modules, whole modules of at least 4 px, for short and long URIs', () => {
    for (const uri of [`dogecoin:${ADDR}?amount=1`, URI, `dogeconnect:${'x'.repeat(300)}/dc/abc?h=ZRSS6AhItVYhubpKAcJ0`]) {
      const q = qrImage(uri);
      const core = QRCode.create(uri, { errorCorrectionLevel: 'M' }).modules.size;
      expect(q.modules).toBe(core + 2 * QR_QUIET_ZONE);
      expect(Number.isInteger(q.modulePx)).toBe(true);
      expect(q.modulePx).toBeGreaterThanOrEqual(QR_MIN_MODULE_PX);
      expect(q.px).toBe(q.modules * q.modulePx);
      const svg = decodeURIComponent(q.src.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''));
      expect(svg).toContain(`viewBox="0 0 ${q.modules} ${q.modules}"`);
    }
  });
});

describe('webUrl', () => {
  it('keeps web addresses only', () => {
    expect(webUrl('https://shop.example/o/1')).toBe('https://shop.example/o/1');
    expect(webUrl('javascript:alert(1)')).toBe('');
    expect(webUrl('data:text/html,x')).toBe('');
    expect(webUrl(' https://x')).toBe('');
    expect(webUrl(undefined)).toBe('');
  });
});
