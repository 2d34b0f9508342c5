import { describe, expect, it } from 'vitest';
import { tillState as saleState } from '@/lib/payments';
import { saleStateOf } from '@/lib/pos/sales';
import { countdown, isFinalPosState, posPaymentState, posStatusMessage, shownTxid } from '@/lib/pos/payment-state';

describe('payment screen state', () => {
  const exp = 1_000_000;
  it('maps views to what the cashier sees', () => {
    expect(posPaymentState({ status: 'unpaid' }, exp, exp - 1)).toBe('waiting');
    expect(posPaymentState({ status: 'unpaid' }, exp, exp)).toBe('waiting'); // at the deadline, not yet past it (lib/payments isPastExpiry)
    expect(posPaymentState({ status: 'unpaid' }, exp, exp + 1)).toBe('expired');
    expect(posPaymentState({ status: 'declined', exception: 'marked_invalid', expired: true }, exp, exp + 1)).toBe('declined'); // stays declined past the deadline
    expect(posPaymentState({ status: 'unpaid', expired: true }, exp, 0)).toBe('expired');
    expect(posPaymentState({ status: 'accepted' }, exp, exp + 1)).toBe('accepted'); // paid in time, confirming late
    expect(posPaymentState({ status: 'confirmed' }, exp, 0)).toBe('confirmed');
    expect(posPaymentState({ status: 'declined', reason: 'marked invalid by merchant', exception: 'marked_invalid' }, exp, 0)).toBe(
      'declined',
    );
    expect(posPaymentState({ status: 'declined', exception: 'cancelled' }, exp, 0)).toBe('cancelled');
    expect(['waiting', 'accepted'].map((s) => isFinalPosState(s as never))).toEqual([false, false]);
    expect(['confirmed', 'declined', 'cancelled', 'expired'].every((s) => isFinalPosState(s as never))).toBe(true);
  });

  it('words the status with confirmations and the decline reason', () => {
    expect(posStatusMessage('waiting', { status: 'unpaid', exception: 'data_missing' })).toEqual({
      title: 'dataMissing',
      detail: 'dataMissingDetail',
    });
    expect(posStatusMessage('accepted', { status: 'accepted', required: 6, confirmed: 2 })).toEqual({
      title: 'accepted',
      detail: 'acceptedProgress',
      values: { n: 2, m: 6 },
    });
    expect(posStatusMessage('accepted', { status: 'accepted', required: 1, confirmed: 0 })).toEqual({
      title: 'accepted',
      detail: 'acceptedProgress',
      values: { n: 0, m: 1 },
    });
    // declined is only the merchant's "mark invalid" or a double spend confirmed after acceptance (docs/relay.md, docs/api.md#payments-from-any-wallet).
    expect(posStatusMessage('declined', { status: 'declined', exception: 'marked_invalid', reason: 'marked invalid by merchant' })).toEqual(
      { title: 'declined', detail: 'markedInvalid', reason: undefined },
    );
    expect(
      posStatusMessage('declined', { status: 'declined', exception: 'double_spent', reason: 'conflicted by a tx in block 812' }),
    ).toEqual({ title: 'declinedDoubleSpent', detail: 'doubleSpentReason', reason: 'conflicted by a tx in block 812' });
    expect(posStatusMessage('declined', { status: 'declined', exception: 'double_spent' })).toEqual({
      title: 'declinedDoubleSpent',
      detail: 'doubleSpentReason',
      reason: undefined,
    });
    expect(posStatusMessage('confirmed', { status: 'confirmed' }).title).toBe('paid');
  });

  it('keeps waiting while a submitted tx is in flight, and shows no txid until one is accepted', () => {
    // A claimed tx (unpaid, txid set while it is broadcast) may still be refused by the network:
    // the claim is then released and the payment stays payable (docs/relay.md).
    const inFlight = { status: 'unpaid', txid: 'ab'.repeat(32) };
    const s = posPaymentState(inFlight, exp, 0);
    expect(s).toBe('waiting');
    expect(isFinalPosState(s)).toBe(false);
    expect(posStatusMessage(s, inFlight).title).toBe('waiting');
    expect(shownTxid(s, inFlight.txid)).toBeNull();
    expect(shownTxid('accepted', 'cd'.repeat(32))).toBe('cd'.repeat(32));
    expect(shownTxid('confirmed', null)).toBeNull();
  });

  it('counts down in m:ss and stops at 0:00', () => {
    expect(countdown(900_000)).toBe('15:00');
    expect(countdown(61_001)).toBe('1:02');
    expect(countdown(-5)).toBe('0:00');
  });
});

describe('recent sale state', () => {
  const row = { status: 'unpaid', exception: null, broadcastState: 'none', expiresAt: new Date(1000) };
  it('shows cancelled and expired apart from declined and waiting', () => {
    expect(saleState(row, new Date(999))).toBe('unpaid');
    expect(saleState(row, new Date(1000))).toBe('unpaid'); // at the deadline, not yet past it (lib/payments isPastExpiry)
    expect(saleState(row, new Date(1001))).toBe('expired');
    // A declined sale past its deadline stays declined (it showed Declined, then Expired after a poll).
    expect(saleState({ ...row, status: 'declined' }, new Date(5000))).toBe('declined');
    expect(saleStateOf({ status: 'declined', exception: null, expired: true })).toBe('declined');
    expect(saleStateOf({ status: 'unpaid', exception: null, expired: true })).toBe('expired');
    expect(saleState({ ...row, broadcastState: 'pending' }, new Date(5000))).toBe('unpaid'); // a tx is in flight
    expect(saleState({ ...row, status: 'declined', exception: 'cancelled' }, new Date(0))).toBe('cancelled');
    expect(saleState({ ...row, status: 'declined' }, new Date(0))).toBe('declined');
    expect(saleState({ ...row, status: 'confirmed', exception: 'paid_late' }, new Date(5000))).toBe('confirmed');
  });
});
