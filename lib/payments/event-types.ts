// The vendor event catalog (docs/api.md "Events"): the table (table.ts) names the events of each
// transition, events.ts writes them. A module of its own so that the table needs nothing else.
export const EVENT_TYPES = [
  'payment.accepted',
  'payment.confirmed',
  'payment.declined',
  'payment.expired',
  'payment.unconfirmed',
  'payment.paid_late',
  'payment.underpaid',
  'payment.overpaid',
  'payment.data_missing',
  'refund.created',
  'refund.accepted',
  'refund.confirmed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
