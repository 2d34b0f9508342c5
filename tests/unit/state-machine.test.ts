// The payment state machine (DESIGN.md §12 "One state machine"): the table drives every
// transition, and nothing outside lib/relay/state/ writes payment.status.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  TRANSITIONS, STATES, IllegalTransitionError, amountException, candidates, transition, type Trigger, type Facts,
} from '@/lib/payments';
import { EVENT_TYPES } from '@/lib/payments';

const ROOT = join(__dirname, '..', '..');
const TRIGGERS: Trigger[] = [...new Set(TRANSITIONS.map((t) => t.trigger))];

/** Facts under which a row's condition holds (the inverse of the table's conditions). */
function factsFor(name: string): Facts {
  const a = (paid: bigint, before = 0n) => ({ total: 100n, paid, before });
  switch (name) {
    case 'pay.accept': return { zeroConf: false, amounts: a(100n) };
    case 'pay.accept_zero_conf': return { zeroConf: true, amounts: a(100n) };
    case 'chain.short': return { amounts: a(40n) };
    case 'chain.nothing': return { amounts: a(0n, 40n) };
    case 'chain.enough': return { amounts: a(100n, 40n) };
    case 'chain.enough_late': return { amounts: a(100n, 40n), late: true };
    case 'chain.more_accepted': case 'chain.more_confirmed': case 'chain.more_declined': return { amounts: a(150n, 100n) };
    case 'chain.short_again': return { amounts: a(40n, 100n) };
    case 'chain.confirm': return { reached: true };
    case 'chain.unconfirm': return { reached: false };
    default: return {};
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
        expect(() => transition(s, null, trig, { amounts: { total: 1n, paid: 1n, before: 0n }, reached: true })).toThrow(IllegalTransitionError);
      }
    }
  });

  it('the merchant decides only unpaid or accepted payments', () => {
    for (const s of ['confirmed', 'declined']) {
      expect(() => transition(s, null, 'merchant.mark_settled')).toThrow(IllegalTransitionError);
      expect(() => transition(s, null, 'merchant.mark_invalid')).toThrow(IllegalTransitionError);
    }
    expect(transition('unpaid', 'underpaid', 'merchant.mark_settled')).toMatchObject({ status: 'confirmed', exception: 'marked_settled', events: ['payment.confirmed'] });
    expect(transition('accepted', null, 'merchant.mark_invalid')).toMatchObject({
      status: 'declined', exception: 'marked_invalid', reason: 'marked invalid by merchant', events: ['payment.declined'],
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
      status: 'unpaid', exception: 'underpaid', events: ['payment.unconfirmed', 'payment.underpaid'],
    });
    expect(transition('accepted', 'reorged', 'chain.paid', { amounts: { total: 100n, paid: 0n, before: 100n } })).toMatchObject({
      status: 'unpaid', exception: 'reorged', events: ['payment.unconfirmed'],
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

/** Sources that write payment.status: Prisma `status:` in the data of an update, or SQL that sets it. */
function statusWriters(): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (f === 'node_modules' || f === 'generated' || f.startsWith('.')) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(f)) files.push(p);
    }
  };
  walk(join(ROOT, 'lib'));
  walk(join(ROOT, 'app'));
  const hits: string[] = [];
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    // The SET list of an UPDATE of payment (up to its WHERE/FROM/RETURNING), naming status.
    const sqlWrite = /UPDATE\s+"?payment"?\s+(?:\w+\s+)?SET\b(?:(?!\b(?:WHERE|FROM|RETURNING)\b)[^;`])*?\bstatus\s*=/i;
    // A Prisma update of payment whose data object (before any nested brace closes) sets status.
    let onPayment = false;
    for (const m of src.matchAll(/\.payment\.(update|updateMany|upsert)\s*\(/g)) {
      const rest = src.slice(m.index! + m[0].length, m.index! + m[0].length + 1500);
      const d = rest.search(/\bdata\s*:\s*\{/);
      if (d >= 0 && /^\{[^}]*\bstatus\s*:/.test(rest.slice(d).replace(/^data\s*:\s*/, ''))) onPayment = true;
    }
    if (onPayment || sqlWrite.test(src)) hits.push(relative(ROOT, f));
  }
  return hits;
}

describe('only the state machine writes payment.status', () => {
  it('finds no writer outside lib/relay/state/', () => {
    const outside = statusWriters().filter((f) => !f.startsWith('lib/relay/state/'));
    expect(outside).toEqual([]);
  });

  it('the scan sees the writers it allows (so it would see others)', () => {
    expect(statusWriters()).toEqual(expect.arrayContaining(['lib/relay/state/relay-accept.ts']));
  });
});
