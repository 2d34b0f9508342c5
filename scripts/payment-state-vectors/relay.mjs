// The /pay vectors (scripts/payment-state-vectors.mjs): a submission claims the payment and is
// released or accepted, the risk policy's depth (replace-by-fee never 0-conf), and acceptance.
import { amounts, ok, v } from './vector.mjs';

export const relayVectors = [
  // /relay/pay's concurrency (docs/relay.md): one submission at a time claims the payment, and
  // gives the claim back when the network refuses its tx (the payment stays unpaid and payable,
  // no event).
  v(
    '§4 Concurrency',
    'a /pay submission claims an unpaid payment to broadcast',
    'unpaid',
    null,
    'relay.claim',
    {},
    { ...ok('unpaid', null, []), broadcast: 'pending' },
  ),
  v(
    '§4 Concurrency',
    'an underpaid payment may be claimed by /pay',
    'unpaid',
    'underpaid',
    'relay.claim',
    {},
    { ...ok('unpaid', 'underpaid', []), broadcast: 'pending' },
  ),
  v(
    '§4 pay 10',
    'the network refused the claimed tx: released, still payable, no event',
    'unpaid',
    null,
    'relay.release',
    {},
    { ...ok('unpaid', null, []), broadcast: 'none' },
  ),
  ...[
    ['accepted', null],
    ['confirmed', null],
    ['declined', 'cancelled'],
  ].flatMap(([st, e]) => [
    v('§4 pay 3-4', `a ${st} payment is not claimed`, st, e, 'relay.claim', {}, 'refused'),
    v('§4 pay 3-4', `a ${st} payment has no claim to release`, st, e, 'relay.release', {}, 'refused'),
  ]),
  // The risk policy (docs/protocol.md#payment-states): a tx that signals replace-by-fee never gets
  // 0-conf, whatever path brought it.
  v(
    '§4 Risk policy',
    'a 0-conf policy, but the /pay tx signals RBF: accepted, 1 conf required',
    'unpaid',
    null,
    'relay.accept',
    { required: 0, rbf: true, amounts: amounts(2, 0) },
    { ...ok('accepted', null, ['payment.accepted']), required: 1 },
  ),
  v(
    '§4 Risk policy',
    'a 0-conf policy and a final /pay tx: confirmed at once',
    'unpaid',
    null,
    'relay.accept',
    { required: 0, rbf: false, amounts: amounts(2, 0) },
    { ...ok('confirmed', null, ['payment.accepted', 'payment.confirmed']), required: 0 },
  ),
  v(
    '§4 Risk policy',
    'a plain-wallet tx that signals RBF reaches the total: 1 conf required',
    'unpaid',
    null,
    'chain.paid',
    { required: 0, rbf: true, amounts: amounts(2, 0) },
    { ...ok('accepted', null, ['payment.accepted']), required: 1 },
  ),
  v(
    '§4 Risk policy',
    'RBF never lowers a stricter policy',
    'unpaid',
    null,
    'relay.accept',
    { required: 6, rbf: true, amounts: amounts(2, 0) },
    { ...ok('accepted', null, ['payment.accepted']), required: 6 },
  ),
  // /relay/pay's last step (docs/architecture.md#the-path-of-one-payment): acceptance, or 0-conf
  // straight to confirmed.
  v(
    '§4 pay 11',
    'a /pay tx the network accepted, 1 conf required',
    'unpaid',
    null,
    'relay.accept',
    { zeroConf: false, amounts: amounts(2, 0) },
    ok('accepted', null, ['payment.accepted']),
  ),
  v(
    '§4 pay 11',
    'a /pay tx the risk policy deems low risk: confirmed at once',
    'unpaid',
    null,
    'relay.accept',
    { zeroConf: true, amounts: amounts(2, 0) },
    ok('confirmed', null, ['payment.accepted', 'payment.confirmed']),
  ),
  v(
    '§4 pay 11 + §12 Too much',
    'a /pay tx after a plain underpayment: the sum is over the total',
    'unpaid',
    'underpaid',
    'relay.accept',
    { zeroConf: false, amounts: amounts(2.5, 0.5) },
    ok('accepted', 'overpaid', ['payment.accepted', 'payment.overpaid']),
  ),
  v(
    '§4 pay 3-4',
    'a /pay for an accepted payment changes nothing',
    'accepted',
    null,
    'relay.accept',
    { zeroConf: false, amounts: amounts(4, 2) },
    'refused',
  ),
  v(
    '§4 pay 3-4',
    'a /pay for a confirmed payment changes nothing',
    'confirmed',
    null,
    'relay.accept',
    { zeroConf: false, amounts: amounts(4, 2) },
    'refused',
  ),
  v('§4 pay 4', 'declined is final', 'declined', 'cancelled', 'relay.accept', { zeroConf: false, amounts: amounts(2, 0) }, 'refused'),
];
