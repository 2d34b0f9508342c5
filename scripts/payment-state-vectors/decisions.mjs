// The decisions' vectors (scripts/payment-state-vectors.mjs): the vendor's cancel, the merchant's
// mark, and a cash sale.
import { ok, v } from './vector.mjs';

export const decisionVectors = [
  // The vendor's cancel (docs/protocol.md#payment-states).
  v(
    '§3 cancel',
    'the vendor cancels an unpaid payment',
    'unpaid',
    null,
    'vendor.cancel',
    {},
    ok('declined', 'cancelled', ['payment.declined'], 'cancelled by vendor'),
  ),
  v(
    '§3 cancel',
    'the vendor cancels an underpaid payment',
    'unpaid',
    'underpaid',
    'vendor.cancel',
    {},
    ok('declined', 'cancelled', ['payment.declined'], 'cancelled by vendor'),
  ),
  v('§3 cancel', 'an accepted payment cannot be cancelled', 'accepted', null, 'vendor.cancel', {}, 'refused'),
  v('§3 cancel', 'a confirmed payment cannot be cancelled', 'confirmed', null, 'vendor.cancel', {}, 'refused'),
  v('§3 cancel', 'a declined payment cannot be cancelled again', 'declined', 'cancelled', 'vendor.cancel', {}, 'refused'),

  // A merchant's mark (docs/api.md#payments-from-any-wallet).
  ...[
    ['unpaid', null],
    ['unpaid', 'underpaid'],
    ['accepted', null],
    ['accepted', 'overpaid'],
    ['accepted', 'paid_late'],
  ].flatMap(([s, e]) => [
    v(
      '§12 mark',
      `settled: ${s}${e ? ` (${e})` : ''} → confirmed`,
      s,
      e,
      'merchant.mark_settled',
      {},
      ok('confirmed', 'marked_settled', ['payment.confirmed']),
    ),
    v(
      '§12 mark',
      `invalid: ${s}${e ? ` (${e})` : ''} → declined`,
      s,
      e,
      'merchant.mark_invalid',
      {},
      ok('declined', 'marked_invalid', ['payment.declined'], 'marked invalid by merchant'),
    ),
  ]),
  ...[
    ['confirmed', null],
    ['confirmed', 'marked_settled'],
    ['declined', 'cancelled'],
    ['declined', 'marked_invalid'],
  ].flatMap(([s, e]) => [
    v('§12 mark', `settled: ${s} (${e}) is a conflict`, s, e, 'merchant.mark_settled', {}, 'refused'),
    v('§12 mark', `invalid: ${s} (${e}) is a conflict`, s, e, 'merchant.mark_invalid', {}, 'refused'),
  ]),

  // Cash (docs/counter.md#cash): a cash sale is paid as it is created; nothing else takes the
  // cash trigger.
  v('§19 cash', 'a new cash sale is recorded paid', 'unpaid', null, 'till.cash', {}, ok('confirmed', null, ['payment.confirmed'])),
  v('§19 cash', 'an accepted payment is not paid in cash', 'accepted', null, 'till.cash', {}, 'refused'),
  v('§19 cash', 'a confirmed payment is not paid in cash again', 'confirmed', null, 'till.cash', {}, 'refused'),
  v('§19 cash', 'a declined payment is not paid in cash', 'declined', 'cancelled', 'till.cash', {}, 'refused'),
];
