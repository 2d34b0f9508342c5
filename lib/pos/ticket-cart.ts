// An open ticket's cart (docs/counter.md#open-tickets) as the JSON the tickets API keeps: the
// till's own lines and extras, amounts as integer strings in the pricing currency's minor units
// (JSON has no bigint), and that currency, so a ticket saved in one currency is never read as
// another. Reading checks every field, since a ticket may have been written by another till or
// an older version: a line that does not parse makes the whole cart unreadable, never a
// half-restored sale.
import { z } from 'zod';
import { NO_EXTRAS, type CartExtras, type CartLine } from './cart';

export interface TicketCart {
  currency: string;
  lines: CartLine[];
  extras: CartExtras;
}

const Minor = z.string().regex(/^\d{1,30}$/);
const Text = z.string().max(200);

const StoredLine = z.object({
  key: Text,
  sku: Text,
  name: Text,
  icon: z.string().max(2000).optional(),
  unit: Minor,
  count: z.number().int().min(1).max(1_000_000),
  taxRateBp: z.number().int().min(0).max(100_000),
  productId: Text.optional(),
  options: z.array(Text).max(50).optional(),
});

const Stored = z.object({
  currency: z.string().min(1).max(8),
  lines: z.array(StoredLine).max(500),
  extras: z.object({ fee: Minor, shipping: Minor, discount: Minor, tip: Minor }),
});

/** The cart as a ticket keeps it. */
export function ticketCartJson(cart: TicketCart): Record<string, unknown> {
  return {
    currency: cart.currency,
    lines: cart.lines.map((l) => ({
      key: l.key,
      sku: l.sku,
      name: l.name,
      ...(l.icon ? { icon: l.icon } : {}),
      unit: l.unit.toString(),
      count: l.count,
      taxRateBp: l.taxRateBp,
      ...(l.productId ? { productId: l.productId } : {}),
      ...(l.options?.length ? { options: l.options } : {}),
    })),
    extras: {
      fee: cart.extras.fee.toString(),
      shipping: cart.extras.shipping.toString(),
      discount: cart.extras.discount.toString(),
      tip: cart.extras.tip.toString(),
    },
  };
}

/** A ticket's cart back as the till's, or null when it is not one (or is in another currency). */
export function cartOfTicket(json: unknown, currency: string): TicketCart | null {
  const r = Stored.safeParse(json);
  if (!r.success || r.data.currency !== currency) return null;
  const lines: CartLine[] = r.data.lines.map((l) => ({
    key: l.key,
    sku: l.sku,
    name: l.name,
    ...(l.icon ? { icon: l.icon } : {}),
    unit: BigInt(l.unit),
    count: l.count,
    taxRateBp: l.taxRateBp,
    ...(l.productId ? { productId: l.productId } : {}),
    ...(l.options?.length ? { options: l.options } : {}),
  }));
  const e = r.data.extras;
  const extras: CartExtras = {
    ...NO_EXTRAS,
    fee: BigInt(e.fee),
    shipping: BigInt(e.shipping),
    discount: BigInt(e.discount),
    tip: BigInt(e.tip),
  };
  return { currency: r.data.currency, lines, extras };
}
