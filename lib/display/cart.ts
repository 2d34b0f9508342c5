// The till's published cart (docs/counter.md#the-customers-display): one row per terminal in
// `display_cart`, whose every write is announced to the displays (migration
// 20261128120000_customer_display), and the one read that serves all of a terminal's displays.
import type { Db } from '../db';
import type { DisplayCart } from './view';
import { DomainError } from '../errors';
import { inStore } from '../stores';

export class NotThisTillsSaleError extends DomainError {
  constructor() {
    super('invalid_request', 'payment_id: not a sale of this till', 'payment_id');
  }
}

/** Stores what the till shows now. A payment must be one of this terminal's own sales. */
export async function publishCart(db: Db, till: { id: string; storeId: number }, cart: DisplayCart): Promise<void> {
  const scope = { terminalId: till.id, ...inStore(till.storeId) };
  if (cart.payment_id) {
    const p = await db.prisma.payment.findFirst({ where: { id: cart.payment_id, ...scope, refundOf: null }, select: { id: true } });
    if (!p) throw new NotThisTillsSaleError();
  }
  // The row takes the till's store: the column's default names the first store only.
  await db.prisma.displayCart.upsert({ where: scope, create: { ...scope, state: cart }, update: { state: cart } });
}

/** What the displays of a terminal follow: its revocation, its paired displays, its cart. */
export interface DisplayRow {
  terminalId: string;
  revoked: boolean;
  displays: string[];
  cart: unknown;
  /** The till's wait for the customer's tip (lib/display/tip.ts), or null. */
  tip: unknown;
}

/** The rows of these terminals (a missing terminal is absent from the map), in one read. */
export async function displayRows(db: Db, terminalIds: readonly string[]): Promise<Map<string, DisplayRow>> {
  const rows = await db.prisma.terminal.findMany({
    where: { id: { in: [...terminalIds] } },
    select: { id: true, revokedAt: true, displays: { select: { id: true } }, displayCart: { select: { state: true, tip: true } } },
  });
  return new Map(
    rows.map((r) => [
      r.id,
      {
        terminalId: r.id,
        revoked: r.revokedAt !== null,
        displays: r.displays.map((d) => d.id).sort(),
        cart: r.displayCart?.state ?? null,
        tip: r.displayCart?.tip ?? null,
      },
    ]),
  );
}
