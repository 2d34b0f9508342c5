#!/usr/bin/env node
// Writes tests/fixtures/payment-state-vectors.json: the payment state machine's expected
// outcomes, written BY HAND from the contract (docs/api.md, the paragraph on payments from any
// wallet, and docs/relay.md; the "§" labels name the contract's sections), never from the code's
// output, so that the
// table test (tests/unit/payment-state-vectors.test.ts) can catch a table that drifts from it.
//
// Each vector is (state, exception, trigger, facts) -> outcome, where outcome is either
// { status, exception, events, reason } or "refused" (the table must have no row: the caller
// answers 409 / 403 / ignores). Amounts are koinu as decimal strings; `total` is 2 DOGE.
// `gap` marks a vector where the code disagrees with the contract today: the test expects it to
// fail (it.fails), so fixing the code turns it red until the marker is removed.
//
// Run: node scripts/payment-state-vectors.mjs   (rewrites the JSON; commit both)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TOTAL = 200000000n;
const k = (doge) => String(BigInt(Math.round(doge * 1e8)));
const amounts = (paid, before) => ({ total: String(TOTAL), paid: k(paid), before: k(before) });
/** Amounts one koinu either side of the total (the boundaries of "short", "enough" and "too much"). */
const koinu = (paid, before) => ({ total: String(TOTAL), paid: String(TOTAL + BigInt(paid)), before: String(TOTAL + BigInt(before)) });
const ok = (status, exception, events, reason = null) => ({ status, exception, events, reason });
const v = (rule, description, state, exception, trigger, facts, outcome, gap) => ({
  rule, description, state, exception, trigger, facts, outcome, ...(gap ? { gap } : {}),
});

const DS = 'double spent'; // §12 "with a reason": the text is free, it must say what happened
const vectors = [
  // §4 /pay Concurrency: one submission at a time claims the payment, and gives the claim back
  // when the network refuses its tx (step 10: the payment stays unpaid and payable, no event).
  v('§4 Concurrency', 'a /pay submission claims an unpaid payment to broadcast', 'unpaid', null, 'relay.claim', {}, { ...ok('unpaid', null, []), broadcast: 'pending' }),
  v('§4 Concurrency', 'an underpaid payment may be claimed by /pay', 'unpaid', 'underpaid', 'relay.claim', {}, { ...ok('unpaid', 'underpaid', []), broadcast: 'pending' }),
  v('§4 pay 10', 'the network refused the claimed tx: released, still payable, no event', 'unpaid', null, 'relay.release', {}, { ...ok('unpaid', null, []), broadcast: 'none' }),
  ...[['accepted', null], ['confirmed', null], ['declined', 'cancelled']].flatMap(([st, e]) => [
    v('§4 pay 3-4', `a ${st} payment is not claimed`, st, e, 'relay.claim', {}, 'refused'),
    v('§4 pay 3-4', `a ${st} payment has no claim to release`, st, e, 'relay.release', {}, 'refused'),
  ]),
  // §4 Risk policy: a tx that signals replace-by-fee never gets 0-conf, whatever path brought it.
  v('§4 Risk policy', 'a 0-conf policy, but the /pay tx signals RBF: accepted, 1 conf required', 'unpaid', null, 'relay.accept', { required: 0, rbf: true, amounts: amounts(2, 0) }, { ...ok('accepted', null, ['payment.accepted']), required: 1 }),
  v('§4 Risk policy', 'a 0-conf policy and a final /pay tx: confirmed at once', 'unpaid', null, 'relay.accept', { required: 0, rbf: false, amounts: amounts(2, 0) }, { ...ok('confirmed', null, ['payment.accepted', 'payment.confirmed']), required: 0 }),
  v('§4 Risk policy', 'a plain-wallet tx that signals RBF reaches the total: 1 conf required', 'unpaid', null, 'chain.paid', { required: 0, rbf: true, amounts: amounts(2, 0) }, { ...ok('accepted', null, ['payment.accepted']), required: 1 }),
  v('§4 Risk policy', 'RBF never lowers a stricter policy', 'unpaid', null, 'relay.accept', { required: 6, rbf: true, amounts: amounts(2, 0) }, { ...ok('accepted', null, ['payment.accepted']), required: 6 }),
  // §4 /pay step 11: acceptance, or 0-conf straight to confirmed.
  v('§4 pay 11', 'a /pay tx the network accepted, 1 conf required', 'unpaid', null, 'relay.accept', { zeroConf: false, amounts: amounts(2, 0) }, ok('accepted', null, ['payment.accepted'])),
  v('§4 pay 11', 'a /pay tx the risk policy deems low risk: confirmed at once', 'unpaid', null, 'relay.accept', { zeroConf: true, amounts: amounts(2, 0) }, ok('confirmed', null, ['payment.accepted', 'payment.confirmed'])),
  v('§4 pay 11 + §12 Too much', 'a /pay tx after a plain underpayment: the sum is over the total', 'unpaid', 'underpaid', 'relay.accept', { zeroConf: false, amounts: amounts(2.5, 0.5) }, ok('accepted', 'overpaid', ['payment.accepted', 'payment.overpaid'])),
  v('§4 pay 3-4', 'a /pay for an accepted payment changes nothing', 'accepted', null, 'relay.accept', { zeroConf: false, amounts: amounts(4, 2) }, 'refused'),
  v('§4 pay 3-4', 'a /pay for a confirmed payment changes nothing', 'confirmed', null, 'relay.accept', { zeroConf: false, amounts: amounts(4, 2) }, 'refused'),
  v('§4 pay 4', 'declined is final', 'declined', 'cancelled', 'relay.accept', { zeroConf: false, amounts: amounts(2, 0) }, 'refused'),

  // §12 Short.
  v('§12 Short', 'first tx leaves it short', 'unpaid', null, 'chain.paid', { amounts: amounts(0.5, 0) }, ok('unpaid', 'underpaid', ['payment.underpaid'])),
  v('§12 Short', 'each new tx that leaves it short emits payment.underpaid', 'unpaid', 'underpaid', 'chain.paid', { amounts: amounts(1.5, 0.5) }, ok('unpaid', 'underpaid', ['payment.underpaid'])),
  v('§12 Short', 'a tx dropped (no new tx): still short, no event', 'unpaid', 'underpaid', 'chain.paid', { amounts: amounts(0.5, 1.5) }, ok('unpaid', 'underpaid', [])),
  v('§12 Short', 'every tx dropped: nothing paid, no exception applies', 'unpaid', 'underpaid', 'chain.paid', { amounts: amounts(0, 0.5) }, ok('unpaid', null, [])),
  v('§12 Short', 'short money after expiry is still short (late only when it reaches the total)', 'unpaid', null, 'chain.paid', { amounts: amounts(0.5, 0), late: true }, ok('unpaid', 'underpaid', ['payment.underpaid'])),
  v('§12 Short', 'one koinu short is short', 'unpaid', null, 'chain.paid', { amounts: koinu(-1, -TOTAL) }, ok('unpaid', 'underpaid', ['payment.underpaid'])),
  // §12 Enough.
  v('§12 Too much', 'one koinu over is over', 'unpaid', null, 'chain.paid', { amounts: koinu(1, -TOTAL) }, ok('accepted', 'overpaid', ['payment.accepted', 'payment.overpaid'])),
  v('§12 Enough', 'one koinu short, then the last koinu: exact, underpaid cleared', 'unpaid', 'underpaid', 'chain.paid', { amounts: koinu(0, -1) }, ok('accepted', null, ['payment.accepted'])),
  v('§12 Too much', 'an accepted payment one koinu over', 'accepted', null, 'chain.paid', { amounts: koinu(1, 0) }, ok('accepted', 'overpaid', ['payment.overpaid'])),
  v('§12 Enough', 'one tx with the exact total', 'unpaid', null, 'chain.paid', { amounts: amounts(2, 0) }, ok('accepted', null, ['payment.accepted'])),
  v('§12 Enough', 'a second tx reaches the total exactly: underpaid is cleared', 'unpaid', 'underpaid', 'chain.paid', { amounts: amounts(2, 0.5) }, ok('accepted', null, ['payment.accepted'])),
  // §12 Too much.
  v('§12 Too much', 'one tx over the total', 'unpaid', null, 'chain.paid', { amounts: amounts(2.5, 0) }, ok('accepted', 'overpaid', ['payment.accepted', 'payment.overpaid'])),
  v('§12 Too much', 'short, then a tx takes it over the total: underpaid replaced by overpaid', 'unpaid', 'underpaid', 'chain.paid', { amounts: amounts(3, 1) }, ok('accepted', 'overpaid', ['payment.accepted', 'payment.overpaid'])),
  v('§12 Too much', 'more money to an accepted payment', 'accepted', null, 'chain.paid', { amounts: amounts(2.3, 2) }, ok('accepted', 'overpaid', ['payment.overpaid'])),
  v('§12 Too much', 'more money again: the event again', 'accepted', 'overpaid', 'chain.paid', { amounts: amounts(3.5, 2.5) }, ok('accepted', 'overpaid', ['payment.overpaid'])),
  v('§12 Too much', 'more money to a confirmed payment', 'confirmed', null, 'chain.paid', { amounts: amounts(3, 2) }, ok('confirmed', 'overpaid', ['payment.overpaid'])),
  v('§12 exceptions', 'an unneeded tx conflicted: back to the exact total clears overpaid, no event', 'accepted', 'overpaid', 'chain.paid', { amounts: amounts(2, 3) }, ok('accepted', null, [])),
  v('§12 exceptions', 'less excess but still over: overpaid stays, no new money no event', 'accepted', 'overpaid', 'chain.paid', { amounts: amounts(2.5, 3) }, ok('accepted', 'overpaid', [])),
  v('§12 exceptions', 'paid_late replaced by overpaid when more money comes', 'accepted', 'paid_late', 'chain.paid', { amounts: amounts(3, 2) }, ok('accepted', 'overpaid', ['payment.overpaid'])),
  // §4 Late payments / §12 Late.
  v('§4 Late, §12 Late', 'the total reached after expires_at', 'unpaid', null, 'chain.paid', { amounts: amounts(2, 0), late: true }, ok('accepted', 'paid_late', ['payment.paid_late'])),
  v('§4 Late, §12 Late', 'an underpaid payment completed after expires_at', 'unpaid', 'underpaid', 'chain.paid', { amounts: amounts(2, 1), late: true }, ok('accepted', 'paid_late', ['payment.paid_late'])),
  v('§4 Late, §12 Too much', 'late and over: paid_late kept, payment.overpaid still told', 'unpaid', null, 'chain.paid', { amounts: amounts(3, 0), late: true }, ok('accepted', 'paid_late', ['payment.paid_late', 'payment.overpaid'])),
  // Money that leaves the node unmined: it no longer counts (§12 "in the mempool and in the chain").
  v('§12 amounts', 'a needed tx left the mempool unmined: short again, payable again', 'accepted', null, 'chain.paid', { amounts: amounts(0.5, 2) }, ok('unpaid', 'underpaid', ['payment.unconfirmed', 'payment.underpaid'])),
  v('§12 amounts', 'the only tx left the mempool unmined', 'accepted', null, 'chain.paid', { amounts: amounts(0, 2) }, ok('unpaid', null, ['payment.unconfirmed'])),
  // Decisions are not replaced by amounts (§12 "A merchant decides the exceptions").
  v('§12 mark', 'money after a settle: the decision stays, the excess is told', 'confirmed', 'marked_settled', 'chain.paid', { amounts: amounts(2.49, 1.99) }, ok('confirmed', 'marked_settled', ['payment.overpaid'])),
  v('§12 mark', 'a short tx after a settle of a short payment: nothing to tell', 'confirmed', 'marked_settled', 'chain.paid', { amounts: amounts(1.995, 1.99) }, ok('confirmed', 'marked_settled', [])),
  v('§4 declined final', 'money to a cancelled payment is recorded, the state stays', 'declined', 'cancelled', 'chain.paid', { amounts: amounts(2, 0) }, ok('declined', 'cancelled', [])),
  v('§4 declined final', 'money to a payment marked invalid', 'declined', 'marked_invalid', 'chain.paid', { amounts: amounts(3, 2) }, ok('declined', 'marked_invalid', [])),
  v('§4 declined final', 'money to a double-spent payment', 'declined', 'double_spent', 'chain.paid', { amounts: amounts(2, 0) }, ok('declined', 'double_spent', [])),
  // §12 Data not committed: a tx lacking the payment's data outputs never accepts it.
  v('§12 Data not committed', 'the full amount in a tx without the data output', 'unpaid', null, 'chain.paid', { amounts: amounts(2, 0), dataMissing: true }, ok('unpaid', 'data_missing', ['payment.data_missing'])),

  // §4 Payment Status / Reorgs: confirmations.
  v('§4 Status', 'the required depth is reached', 'accepted', null, 'chain.confirmations', { reached: true }, ok('confirmed', null, ['payment.confirmed'])),
  v('§4 Status', 'an overpaid payment reaches its depth: the exception stays', 'accepted', 'overpaid', 'chain.confirmations', { reached: true }, ok('confirmed', 'overpaid', ['payment.confirmed'])),
  v('§4 Status', 'a late payment reaches its depth', 'accepted', 'paid_late', 'chain.confirmations', { reached: true }, ok('confirmed', 'paid_late', ['payment.confirmed'])),
  v('§4 Status', 'not deep enough yet: no transition (the count alone is written)', 'accepted', null, 'chain.confirmations', { reached: false }, 'refused'),
  v('§4 Reorgs', 'a reorg drops a confirmed payment below required', 'confirmed', null, 'chain.confirmations', { reached: false }, ok('accepted', 'reorged', ['payment.unconfirmed'])),
  v('§4 Reorgs', 'a reorg drops an overpaid confirmed payment: its exception stays', 'confirmed', 'overpaid', 'chain.confirmations', { reached: false }, ok('accepted', 'overpaid', ['payment.unconfirmed'])),
  v('§4 Reorgs', 'still deep enough: nothing', 'confirmed', null, 'chain.confirmations', { reached: true }, 'refused'),
  v('§12 mark', 'a merchant-settled payment is not unconfirmed by the recount', 'confirmed', 'marked_settled', 'chain.confirmations', { reached: false }, 'refused'),
  v('§4 Status', 'an unpaid payment has no confirmations to count', 'unpaid', null, 'chain.confirmations', { reached: true }, 'refused'),
  v('§4 declined final', 'a declined payment is not confirmed by depth', 'declined', 'cancelled', 'chain.confirmations', { reached: true }, 'refused'),

  // §12 Double spent.
  v('§12 Double spent', 'a needed tx conflicted by a mined tx', 'accepted', null, 'chain.double_spend', {}, { ...ok('declined', 'double_spent', ['payment.declined']), reason: null, reason_contains: DS }),
  v('§12 Double spent', 'an overpaid payment double spent: the decline replaces overpaid', 'accepted', 'overpaid', 'chain.double_spend', {}, { ...ok('declined', 'double_spent', ['payment.declined']), reason: null, reason_contains: DS }),
  v('§12 Double spent', 'a payment whose block was disconnected, then its tx conflicted', 'confirmed', 'reorged', 'chain.double_spend', {}, { ...ok('declined', 'double_spent', ['payment.declined']), reason: null, reason_contains: DS }),
  v('§12 mark', 'a merchant-settled payment is not declined by a double spend', 'confirmed', 'marked_settled', 'chain.double_spend', {}, 'refused'),
  v('§12 Double spent', 'nothing was relied on while unpaid', 'unpaid', 'underpaid', 'chain.double_spend', {}, 'refused'),
  v('§4 declined final', 'already declined', 'declined', 'cancelled', 'chain.double_spend', {}, 'refused'),

  // §5 payment.expired: an event only; the payment stays payable (§4 Late).
  v('§5 expired', 'past issued + timeout', 'unpaid', null, 'timer.expiry', {}, ok('unpaid', null, ['payment.expired'])),
  v('§5 expired', 'an underpaid payment expires: still short, still payable', 'unpaid', 'underpaid', 'timer.expiry', {}, ok('unpaid', 'underpaid', ['payment.expired'])),
  v('§5 expired', 'an accepted payment does not expire', 'accepted', null, 'timer.expiry', {}, 'refused'),
  v('§5 expired', 'a confirmed payment does not expire', 'confirmed', null, 'timer.expiry', {}, 'refused'),
  v('§5 expired', 'a declined payment does not expire', 'declined', 'cancelled', 'timer.expiry', {}, 'refused'),

  // §3 cancel.
  v('§3 cancel', 'the vendor cancels an unpaid payment', 'unpaid', null, 'vendor.cancel', {}, ok('declined', 'cancelled', ['payment.declined'], 'cancelled by vendor')),
  v('§3 cancel', 'the vendor cancels an underpaid payment', 'unpaid', 'underpaid', 'vendor.cancel', {}, ok('declined', 'cancelled', ['payment.declined'], 'cancelled by vendor')),
  v('§3 cancel', 'an accepted payment cannot be cancelled', 'accepted', null, 'vendor.cancel', {}, 'refused'),
  v('§3 cancel', 'a confirmed payment cannot be cancelled', 'confirmed', null, 'vendor.cancel', {}, 'refused'),
  v('§3 cancel', 'a declined payment cannot be cancelled again', 'declined', 'cancelled', 'vendor.cancel', {}, 'refused'),

  // §12 mark.
  ...[['unpaid', null], ['unpaid', 'underpaid'], ['accepted', null], ['accepted', 'overpaid'], ['accepted', 'paid_late']].flatMap(([s, e]) => [
    v('§12 mark', `settled: ${s}${e ? ` (${e})` : ''} → confirmed`, s, e, 'merchant.mark_settled', {}, ok('confirmed', 'marked_settled', ['payment.confirmed'])),
    v('§12 mark', `invalid: ${s}${e ? ` (${e})` : ''} → declined`, s, e, 'merchant.mark_invalid', {}, ok('declined', 'marked_invalid', ['payment.declined'], 'marked invalid by merchant')),
  ]),
  ...[['confirmed', null], ['confirmed', 'marked_settled'], ['declined', 'cancelled'], ['declined', 'marked_invalid']].flatMap(([s, e]) => [
    v('§12 mark', `settled: ${s} (${e}) is a conflict`, s, e, 'merchant.mark_settled', {}, 'refused'),
    v('§12 mark', `invalid: ${s} (${e}) is a conflict`, s, e, 'merchant.mark_invalid', {}, 'refused'),
  ]),

  // §19 cash: a cash sale is paid as it is created; nothing else takes the cash trigger.
  v('§19 cash', 'a new cash sale is recorded paid', 'unpaid', null, 'till.cash', {}, ok('confirmed', null, ['payment.confirmed'])),
  v('§19 cash', 'an accepted payment is not paid in cash', 'accepted', null, 'till.cash', {}, 'refused'),
  v('§19 cash', 'a confirmed payment is not paid in cash again', 'confirmed', null, 'till.cash', {}, 'refused'),
  v('§19 cash', 'a declined payment is not paid in cash', 'declined', 'cancelled', 'till.cash', {}, 'refused'),
];

const out = {
  description: 'Payment state machine vectors: (state, exception, trigger, facts) -> outcome or "refused". Written by hand from the contract; see scripts/payment-state-vectors.mjs.',
  units: 'amounts in koinu (decimal strings); total = 2 DOGE',
  vectors,
};
const target = fileURLToPath(new URL('../tests/fixtures/payment-state-vectors.json', import.meta.url));
writeFileSync(target, JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${vectors.length} vectors to ${target}`);
