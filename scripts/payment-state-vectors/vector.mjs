// How a payment state vector is written (scripts/payment-state-vectors.mjs): the amounts, an
// expected outcome, and the vector itself. Amounts are koinu as decimal strings; `total` is 2 DOGE.
export const TOTAL = 200000000n;
const k = (doge) => String(BigInt(Math.round(doge * 1e8)));
export const amounts = (paid, before) => ({ total: String(TOTAL), paid: k(paid), before: k(before) });
/** Amounts one koinu either side of the total (the boundaries of "short", "enough" and "too much"). */
export const koinu = (paid, before) => ({
  total: String(TOTAL),
  paid: String(TOTAL + BigInt(paid)),
  before: String(TOTAL + BigInt(before)),
});
export const ok = (status, exception, events, reason = null) => ({ status, exception, events, reason });
export const v = (rule, description, state, exception, trigger, facts, outcome, gap) => ({
  rule,
  description,
  state,
  exception,
  trigger,
  facts,
  outcome,
  ...(gap ? { gap } : {}),
});

// A declined payment's reason: the text is free, it must say what happened.
export const DS = 'double spent';
