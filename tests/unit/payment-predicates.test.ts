// The table's broadcast sub-state, its RBF rule and the `can…` predicates (lib/payments), pure.
import { describe, expect, it } from 'vitest';
import {
  TRANSITIONS,
  allows,
  transition,
  requiredDepth,
  canCancel,
  canMark,
  canClaimBroadcast,
  canReleaseBroadcast,
  canRefund,
  isExpired,
  isPastExpiry,
  isExpiryDue,
  isFinal,
  amountDue,
  tillState,
  tillStateOfView,
  expiredField,
} from '@/lib/payments';

const at = (ms: number) => new Date(ms);
const row = (status: string, broadcastState = 'none') => ({ status, broadcastState, exception: null, expiresAt: at(1000) });

describe('the broadcast sub-state is part of the table', () => {
  it('claim: none → pending; release: pending → none; accept: pending → sent; chain acceptance → sent; short again → none', () => {
    const b = (name: string) => TRANSITIONS.find((t) => t.name === name)!.broadcast;
    expect(b('pay.claim')).toEqual({ from: 'none', to: 'pending' });
    expect(b('pay.release')).toEqual({ from: 'pending', to: 'none' });
    expect(b('pay.accept')).toEqual({ from: 'pending', to: 'sent' });
    expect(b('pay.accept_zero_conf')).toEqual({ from: 'pending', to: 'sent' });
    expect(b('chain.enough')?.to).toBe('sent');
    expect(b('chain.short_again')?.to).toBe('none');
    expect(b('vendor.cancel')?.from).toBe('none');
    expect(b('timer.expired')?.from).toBe('none');
    expect(transition('unpaid', null, 'relay.claim')).toMatchObject({ status: 'unpaid', broadcast: 'pending', events: [] });
    expect(transition('unpaid', 'underpaid', 'relay.release')).toMatchObject({
      status: 'unpaid',
      exception: 'underpaid',
      broadcast: 'none',
    });
  });

  it('asks the sub-state: a claim only when none is pending, a release only when one is', () => {
    expect(canClaimBroadcast(row('unpaid'))).toBe(true);
    expect(canClaimBroadcast(row('unpaid', 'pending'))).toBe(false);
    expect(canClaimBroadcast(row('accepted', 'sent'))).toBe(false);
    expect(canReleaseBroadcast(row('unpaid', 'pending'))).toBe(true);
    expect(canReleaseBroadcast(row('unpaid'))).toBe(false);
    expect(allows(row('declined'), 'relay.claim')).toBe(false);
  });
});

describe('replace-by-fee never gets 0-conf', () => {
  const amounts = { total: 100n, paid: 100n, before: 0n };
  it('relay.accept: a 0-conf policy with an RBF tx is accepted, requiring 1', () => {
    expect(transition('unpaid', null, 'relay.accept', { required: 0, rbf: true, amounts })).toMatchObject({
      status: 'accepted',
      required: 1,
    });
    expect(transition('unpaid', null, 'relay.accept', { required: 0, rbf: false, amounts })).toMatchObject({
      status: 'confirmed',
      required: 0,
    });
    expect(transition('unpaid', null, 'relay.accept', { zeroConf: true, rbf: true, amounts }).status).toBe('accepted');
  });
  it('chain.paid: the plain-wallet path raises the required depth the same way; a deeper policy is kept', () => {
    expect(transition('unpaid', null, 'chain.paid', { required: 0, rbf: true, amounts })).toMatchObject({
      status: 'accepted',
      required: 1,
    });
    expect(transition('unpaid', null, 'chain.paid', { required: 0, amounts })).toMatchObject({ status: 'accepted', required: 0 });
    expect(requiredDepth({ required: 6, rbf: true })).toBe(6);
    expect(requiredDepth({})).toBeUndefined();
  });
});

describe('predicates and derived facts', () => {
  it('expired: strictly past the deadline, unpaid, nothing in flight', () => {
    expect(isPastExpiry({ expiresAt: at(1000) }, at(1000))).toBe(false);
    expect(isPastExpiry({ expiresAt: at(1000) }, at(1001))).toBe(true);
    expect(isExpired(row('unpaid'), at(1001))).toBe(true);
    expect(isExpired(row('unpaid', 'pending'), at(1001))).toBe(false);
    expect(isExpired(row('declined'), at(1001))).toBe(false);
    expect(expiredField(row('declined'), at(1001))).toBe(true); // the vendor API's field, as it was
    expect(isFinal(row('unpaid'), at(1001))).toBe(true);
    expect(isFinal(row('accepted', 'sent'), at(5000))).toBe(false);
  });

  it('first expiry from the row: due once, never for a refund', () => {
    const r = { ...row('unpaid'), expiredAt: null as Date | null, refundOf: null as string | null };
    expect(isExpiryDue(r, at(1001))).toBe(true);
    expect(isExpiryDue({ ...r, expiredAt: at(1001) }, at(2000))).toBe(false);
    expect(isExpiryDue({ ...r, refundOf: 'p' }, at(2000))).toBe(false);
    expect(isExpiryDue({ ...r, broadcastState: 'pending' }, at(2000))).toBe(false);
  });

  it('cancel and mark follow the table', () => {
    expect(canCancel(row('unpaid'))).toBe(true);
    expect(canCancel(row('unpaid', 'pending'))).toBe(false);
    expect(canCancel(row('accepted', 'sent'))).toBe(false);
    for (const s of ['unpaid', 'accepted']) expect([canMark(row(s), 'settled'), canMark(row(s), 'invalid')]).toEqual([true, true]);
    for (const s of ['confirmed', 'declined']) expect([canMark(row(s), 'settled'), canMark(row(s), 'invalid')]).toEqual([false, false]);
    expect(canRefund({ refundOf: null, amountPaid: 1n })).toBe(true);
    expect(canRefund({ refundOf: 'p', amountPaid: 1n })).toBe(false);
    expect(canRefund({ refundOf: null, amountPaid: 0n })).toBe(false);
  });

  it('amount due and the till: a declined sale stays declined past its deadline', () => {
    expect(amountDue({ total: 100n, amountPaid: 40n })).toBe(60n);
    expect(amountDue({ total: 100n, amountPaid: 140n })).toBe(0n);
    expect(tillState({ ...row('declined'), exception: 'marked_invalid' }, at(5000))).toBe('declined');
    expect(tillState({ ...row('declined'), exception: 'cancelled' }, at(5000))).toBe('cancelled');
    expect(tillState(row('unpaid'), at(5000))).toBe('expired');
    expect(tillStateOfView({ status: 'declined', exception: null, expired: true })).toBe('declined');
    expect(tillStateOfView({ status: 'unpaid', exception: 'underpaid', expired: true })).toBe('expired');
    expect(tillStateOfView({ status: 'accepted', expired: false })).toBe('accepted');
  });
});
