// Payment states (docs/protocol.md#payment-states: confirmations, reorgs, a cancel, declined is
// final; docs/api.md#payments-from-any-wallet: the amounts' exceptions and a merchant's mark): the
// state table (transition()) checked against vectors written by hand from the contract, in the
// style of @scure/btc-signer's test/vectors. How the file was made:
// scripts/payment-state-vectors.mjs. A vector marked `gap` is a known disagreement between code
// and contract: it is expected to fail until the code is fixed (then remove the marker).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IllegalTransitionError, TRANSITIONS, transition, type Facts, type Trigger } from '@/lib/payments';

interface Outcome {
  status: string;
  exception: string | null;
  events: string[];
  reason: string | null;
  reason_contains?: string;
  /** The /pay broadcast sub-state the row is left in, when the transition sets it. */
  broadcast?: string;
  /** The depth the payment then requires (RBF never gets 0-conf). */
  required?: number;
}
interface Vector {
  rule: string;
  description: string;
  state: string;
  exception: string | null;
  trigger: Trigger;
  facts: {
    amounts?: { total: string; paid: string; before: string };
    late?: boolean;
    zeroConf?: boolean;
    reached?: boolean;
    dataMissing?: boolean;
    required?: number;
    rbf?: boolean;
  };
  outcome: Outcome | 'refused';
  gap?: string;
}

const file = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'payment-state-vectors.json'), 'utf8')) as { vectors: Vector[] };
const vectors = file.vectors;

function factsOf(v: Vector): Facts {
  const { amounts, ...rest } = v.facts;
  return {
    ...rest,
    ...(amounts ? { amounts: { total: BigInt(amounts.total), paid: BigInt(amounts.paid), before: BigInt(amounts.before) } } : {}),
  } as Facts;
}

const run = (v: Vector) => transition(v.state, v.exception, v.trigger, factsOf(v));

function check(v: Vector) {
  if (v.outcome === 'refused') {
    expect(() => run(v)).toThrow(IllegalTransitionError);
    return;
  }
  const o = run(v);
  expect({ status: o.status, exception: o.exception, events: o.events }).toEqual({
    status: v.outcome.status,
    exception: v.outcome.exception,
    events: v.outcome.events,
  });
  if (v.outcome.broadcast !== undefined) expect(o.broadcast).toBe(v.outcome.broadcast);
  if (v.outcome.required !== undefined) expect(o.required).toBe(v.outcome.required);
  if (v.outcome.reason_contains) expect(o.reason ?? '').toContain(v.outcome.reason_contains);
  else expect(o.reason ?? null).toBe(v.outcome.reason);
}

describe("payment state vectors (states, reorgs, cancel, expiry, the amounts and a merchant's mark)", () => {
  it('the file is well formed: every vector names a state, a trigger and an outcome', () => {
    expect(vectors.length).toBeGreaterThan(50);
    for (const v of vectors) {
      expect(['unpaid', 'accepted', 'confirmed', 'declined']).toContain(v.state);
      expect(v.outcome === 'refused' || typeof v.outcome.status === 'string').toBe(true);
    }
  });

  for (const [i, v] of vectors.entries()) {
    const name = `${v.rule}: ${v.description} [${v.state}/${v.exception ?? '-'} on ${v.trigger}] #${i}`;
    if (v.gap) it.fails(`${name} (known gap: ${v.gap})`, () => check(v));
    else it(name, () => check(v));
  }

  it('every row of the table is reached by a vector the code passes', () => {
    const reached = new Set<string>();
    for (const v of vectors) {
      if (v.gap || v.outcome === 'refused') continue;
      reached.add(run(v).transition.name);
    }
    expect(TRANSITIONS.map((t) => t.name).filter((n) => !reached.has(n))).toEqual([]);
  });

  it('every state × trigger pair is covered by a vector, allowed or refused', () => {
    const triggers = [...new Set(TRANSITIONS.map((t) => t.trigger))];
    const seen = new Set(vectors.map((v) => `${v.state} ${v.trigger}`));
    const missing = ['unpaid', 'accepted', 'confirmed', 'declined']
      .flatMap((s) => triggers.map((t) => `${s} ${t}`))
      .filter((k) => !seen.has(k));
    expect(missing).toEqual([]);
  });
});
