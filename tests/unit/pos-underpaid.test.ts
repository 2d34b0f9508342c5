// The till's view of a short payment (docs/api.md#payments-from-any-wallet): what is paid and missing, and a
// plain dogecoin: URI for the rest; nothing when the payment is not waiting, not underpaid, or
// its amounts do not add up.
import { describe, expect, it } from 'vitest';
import { underpaidRest } from '@/lib/pos/payment-state';

const URI = 'dogecoin:nZ9q2rLuBzZJhFJ7u5VqYdR3GrRvxCY4ZR?amount=12.5&dc=127.0.0.1%3A3000%2Fdc%2Fabc&h=xyz';

describe('underpaidRest', () => {
  it('a short waiting payment: paid, due and the rest as a plain dogecoin: URI', () => {
    expect(
      underpaidRest('waiting', { status: 'unpaid', exception: 'underpaid', amount_paid: '5', amount_due: '7.5' }, '12.5', URI),
    ).toEqual({
      paid: 500_000_000n,
      due: 750_000_000n,
      total: 1_250_000_000n,
      restUri: 'dogecoin:nZ9q2rLuBzZJhFJ7u5VqYdR3GrRvxCY4ZR?amount=7.5',
    });
    expect(
      underpaidRest(
        'waiting',
        { status: 'unpaid', exception: 'underpaid', amount_paid: '12.49999999', amount_due: '0.00000001' },
        '12.5',
        URI,
      )?.restUri,
    ).toBe('dogecoin:nZ9q2rLuBzZJhFJ7u5VqYdR3GrRvxCY4ZR?amount=0.00000001');
  });
  it('nothing otherwise: not short, not waiting, amounts that do not add up, no address', () => {
    const short = { status: 'unpaid', exception: 'underpaid', amount_paid: '5', amount_due: '7.5' };
    expect(underpaidRest('waiting', { status: 'unpaid', exception: null, amount_paid: '0', amount_due: '12.5' }, '12.5', URI)).toBeNull();
    expect(underpaidRest('expired', short, '12.5', URI)).toBeNull();
    expect(underpaidRest('accepted', { ...short, status: 'accepted' }, '12.5', URI)).toBeNull();
    expect(underpaidRest('waiting', { ...short, amount_due: '7' }, '12.5', URI)).toBeNull();
    expect(underpaidRest('waiting', { ...short, amount_paid: 'x' }, '12.5', URI)).toBeNull();
    expect(underpaidRest('waiting', short, '12.5', 'dogeconnect:host/dc/abc?h=x')).toBeNull();
  });
});
