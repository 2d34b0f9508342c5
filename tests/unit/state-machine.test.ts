// The payment state machine (docs/architecture.md#one-writer-libpayments): the table drives every
// transition (nothing outside lib/payments writes the payment tables: tests/unit/one-writer.test.ts).
import { describe, expect, it } from 'vitest';
import {
  TRANSITIONS,
  STATES,
  IllegalTransitionError,
  amountException,
  candidates,
  transition,
  type Trigger,
  type Facts,
} from '@/lib/payments';
import { EVENT_TYPES } from '@/lib/payments';

const TRIGGERS: Trigger[] = [...new Set(TRANSITIONS.map((t) => t.trigger))];

/** Facts under which a row's condition holds (the inverse of the table's conditions). */
function factsFor(name: string): Facts {
  const a = (paid: bigint, before = 0n) => ({ total: 100n, paid, before });
  switch (name) {
    case 'pay.accept':
      return { zeroConf: false, amounts: a(100n) };
    case 'pay.accept_zero_conf':
      return { zeroConf: true, amounts: a(100n) };
    case 'chain.short':
      return { amounts: a(40n) };
    case 'chain.data_missing':
      return { amounts: a(100n), dataMissing: true };
    case 'chain.nothing':
      return { amounts: a(0n, 40n) };
    case 'chain.enough':
      return { amounts: a(100n, 40n) };
    case 'chain.enough_late':
      return { amounts: a(100n, 40n), late: true };
    case 'chain.more_accepted':
    case 'chain.more_confirmed':
    case 'chain.more_declined':
      return { amounts: a(150n, 100n) };
    case 'chain.short_again':
      return { amounts: a(40n, 100n) };
    case 'chain.confirm':
      return { reached: true };
    case 'chain.unconfirm':
      return { reached: false };
    default:
      return {};
  }
}

describe('the transition table', () => {
  it('has unique names, known states, known events, and reasons on every move into declined', () => {
    expect(new Set(TRANSITIONS.map((t) => t.name)).size).toBe(TRANSITIONS.length);
    for (const t of TRANSITIONS) {
      expect(STATES).toContain(t.from);
      expect(STATES).toContain(t.to);
      for (const e of t.events) expect(EVENT_TYPES).toContain(e);
      if (t.to === 'declined' && t.from !== 'declined') expect(t.reason).toBeTruthy();
    }
  });

  it('declined is final: its only row keeps it declined', () => {
    for (const t of TRANSITIONS.filter((x) => x.from === 'declined')) expect(t.to).toBe('declined');
  });

  it('drives every row: its facts pick it, and the outcome is its next state and events', () => {
    for (const row of TRANSITIONS) {
      const o = transition(row.from, null, row.trigger, factsFor(row.name));
      expect(o.transition.name, row.name).toBe(row.name);
      expect(o.status).toBe(row.to);
      for (const e of row.events) expect(o.events).toContain(e);
    }
  });

  it('refuses every (state, trigger) pair the table lacks', () => {
    for (const s of STATES) {
      for (const trig of TRIGGERS) {
        if (candidates(s, trig).length > 0) continue;
        expect(() => transition(s, null, trig, { amounts: { total: 1n, paid: 1n, before: 0n }, reached: true })).toThrow(
          IllegalTransitionError,
        );
      }
    }
  });

  it('the merchant decides only unpaid or accepted payments', () => {
    for (const s of ['confirmed', 'declined']) {
      expect(() => transition(s, null, 'merchant.mark_settled')).toThrow(IllegalTransitionError);
      expect(() => transition(s, null, 'merchant.mark_invalid')).toThrow(IllegalTransitionError);
    }
    expect(transition('unpaid', 'underpaid', 'merchant.mark_settled')).toMatchObject({
      status: 'confirmed',
      exception: 'marked_settled',
      events: ['payment.confirmed'],
    });
    expect(transition('accepted', null, 'merchant.mark_invalid')).toMatchObject({
      status: 'declined',
      exception: 'marked_invalid',
      reason: 'marked invalid by merchant',
      events: ['payment.declined'],
    });
  });

  it('property: over random sequences of txs, status and exception follow the amounts', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let run = 0; run < 300; run++) {
      const total = BigInt(1 + rnd(500));
      let paid = 0n;
      let status = 'unpaid';
      let exception: string | null = null;
      for (let k = 0; k < 1 + rnd(5); k++) {
        const before = paid;
        paid += BigInt(1 + rnd(300));
        const o = transition(status, exception, 'chain.paid', { amounts: { total, paid, before } });
        status = o.status;
        exception = o.exception;
        if (paid < total) {
          expect(status).toBe('unpaid');
          expect(exception).toBe('underpaid');
          expect(o.events).toEqual(['payment.underpaid']);
        } else {
          expect(status).toBe('accepted');
          expect(exception).toBe(paid > total ? 'overpaid' : null);
          expect(o.events.includes('payment.overpaid')).toBe(paid > total);
          if (before < total) expect(o.events).toContain('payment.accepted');
        }
      }
    }
  });

  it('an accepted payment whose needed tx the node dropped is short again: unpaid, underpaid, payment.unconfirmed + payment.underpaid', () => {
    expect(transition('accepted', null, 'chain.paid', { amounts: { total: 100n, paid: 40n, before: 100n } })).toMatchObject({
      status: 'unpaid',
      exception: 'underpaid',
      events: ['payment.unconfirmed', 'payment.underpaid'],
    });
    expect(transition('accepted', 'reorged', 'chain.paid', { amounts: { total: 100n, paid: 0n, before: 100n } })).toMatchObject({
      status: 'unpaid',
      exception: 'reorged',
      events: ['payment.unconfirmed'],
    });
    expect(transition('accepted', null, 'chain.paid', { amounts: { total: 100n, paid: 120n, before: 100n } }).status).toBe('accepted');
  });

  it('an exception is replaced by the next that applies and cleared at the exact total; decisions stick', () => {
    expect(amountException({ total: 10n, paid: 4n }, false, null)).toBe('underpaid');
    expect(amountException({ total: 10n, paid: 10n }, false, 'underpaid')).toBeNull();
    expect(amountException({ total: 10n, paid: 12n }, false, 'underpaid')).toBe('overpaid');
    expect(amountException({ total: 10n, paid: 10n }, true, 'underpaid')).toBe('paid_late');
    expect(amountException({ total: 10n, paid: 12n }, false, 'marked_settled')).toBe('marked_settled');
  });
});

describe('a reorg that leaves the amounts exact (chain.unconfirm, keepOr)', () => {
  // A confirmed, overpaid payment loses its /pay tx to a mined double spend; another tx still pays
  // the total exactly (the model test's counterexample): back to accepted, and the exception the
  // amounts leave (none) gives way to reorged, instead of overpaid kept and then cleared.
  const exact = { total: 10n, paid: 10n, before: 10n };
  it('keeps reorged when the step has amounts that clear overpaid', () => {
    const o = transition('confirmed', 'overpaid', 'chain.confirmations', { reached: false, amounts: exact });
    expect([o.status, o.exception, o.events]).toEqual(['accepted', 'reorged', ['payment.unconfirmed']]);
  });
  it('keeps an exception the amounts still call for, and keeps one without amounts', () => {
    const over = { total: 10n, paid: 12n, before: 12n };
    expect(transition('confirmed', 'overpaid', 'chain.confirmations', { reached: false, amounts: over }).exception).toBe('overpaid');
    expect(transition('confirmed', 'overpaid', 'chain.confirmations', { reached: false }).exception).toBe('overpaid');
    expect(transition('confirmed', 'paid_late', 'chain.confirmations', { reached: false, amounts: exact, late: true }).exception).toBe(
      'paid_late',
    );
  });
});
