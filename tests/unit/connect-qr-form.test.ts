// preferredQrForm: the QR form a till or checkout page opens on (docs/relay.md).
import { describe, expect, it } from 'vitest';
import { needsConnectWallet, preferredQrForm } from '../../lib/connect';
import { makePayment } from '../helpers/connect-payment';

const item = { type: 'item', id: 'a', name: 'Tea', count: 1, unit: '1', total: '1' };
const p2pkh = { type: 'p2pkh', address: 'nX', amount: '1' };

describe('preferredQrForm', () => {
  it('opens an ordinary payment on the dogecoin: form (vendor body or Connect Payment)', () => {
    const payment = makePayment({ items: [item], outputs: [p2pkh] } as never);
    expect(preferredQrForm(payment)).toBe('dogecoin');
    const body = { id: 'x', status: 'unpaid', payment };
    expect(preferredQrForm(body)).toBe('dogecoin');
    // an output without a type is p2pkh (docs/protocol.md#limits-and-versioning)
    const untyped = { payment: { items: [], outputs: [{ address: 'nX', amount: '1' }] } };
    expect(preferredQrForm(untyped)).toBe('dogecoin');
  });
  it('opens a payment with a data output on dogeconnect:', () => {
    const body = { payment: { items: [item], outputs: [p2pkh, { type: 'data', data: '00' }] } };
    expect(preferredQrForm(body)).toBe('dogeconnect');
    expect(preferredQrForm(body.payment)).toBe('dogeconnect');
    expect(needsConnectWallet(body)).toBe(true);
  });
  it('opens a payment with a signing item on dogeconnect:', () => {
    const body = { payment: { items: [item, { type: 'signing', id: 's', name: 'Stamp' }], outputs: [p2pkh] } };
    expect(preferredQrForm(body)).toBe('dogeconnect');
    expect(preferredQrForm(makePayment())).toBe('dogeconnect'); // the helper's payment has both
  });
  it('is total over odd input: nothing known means the dogecoin: form', () => {
    for (const x of [null, undefined, {}, { payment: null }, { items: null, outputs: null }, { items: [null], outputs: [undefined] }]) {
      expect(preferredQrForm(x as never)).toBe('dogecoin');
    }
  });
});
