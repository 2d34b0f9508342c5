// Tips on the customer's display (docs/counter.md#tips-on-the-customers-display). When the store
// takes tips and the till has a paired display, Charge first asks the customer: the till opens a
// wait (the sale's total before the tip, taxes included, in the pricing currency), the display
// shows "No tip", the store's three percentages with their amounts, and "Custom", and the
// customer's answer is kept until the till reads it and charges. The wait lives beside the till's
// published cart (display_cart.tip), so the display learns of it through the same announcement,
// and the display's route can tell whether its till waits: outside the wait it is 409, whatever
// the body. The till's own routes open, read and end the wait.
import { z } from 'zod';
import type { Db } from '../db';
import { DomainError } from '../errors';
import { parseFiatMinor, parseKoinu } from '../money';
import { findStore, inStore } from '../stores';

export const DEFAULT_TIP_PERCENTS = [10, 15, 20] as const;

/** The store setting: three whole percentages from 1 to 100. */
export const TipPercentsSchema = z.array(z.number().int().min(1).max(100)).length(3, 'must be three percentages');

const minor = z.string().regex(/^\d{1,20}$/);
const TipWaitSchema = z.object({
  base: minor,
  currency: z.string().regex(/^[A-Z]{3,5}$/),
  percents: TipPercentsSchema,
  answer: minor.nullable(),
});

/** A till's wait for the customer's tip; `answer` the tip chosen (minor units), null until then. */
export type TipWait = z.infer<typeof TipWaitSchema>;

/** What the display shows while its till waits: the sale, the choices with their amounts. */
export interface TipScreen {
  currency: string;
  base: string;
  options: { percent: number; amount: string }[];
  answered: boolean;
}

export class TipError extends DomainError {
  constructor(code: 'invalid_request' | 'conflict', field: string, message: string) {
    super(code, field ? `${field}: ${message}` : message, field);
    this.name = 'TipError';
  }
}

/** `percent` of `base`, rounded half up to the minor unit. */
export function tipOf(base: bigint, percent: number): bigint {
  return (base * BigInt(percent) + 50n) / 100n;
}

export function storedTipWait(v: unknown): TipWait | null {
  const r = TipWaitSchema.safeParse(v);
  return r.success ? r.data : null;
}

export function tipScreen(wait: TipWait): TipScreen {
  const base = BigInt(wait.base);
  return {
    currency: wait.currency,
    base: wait.base,
    options: wait.percents.map((percent) => ({ percent, amount: tipOf(base, percent).toString() })),
    answered: wait.answer !== null,
  };
}

const AnswerSchema = z.union([
  z.object({ percent: z.number().int().min(0).max(1_000_000) }).strict(),
  z.object({ amount: z.string().max(40) }).strict(),
]);

/** The customer's answer in minor units: a percentage of the sale or an amount, never over 100 %. */
export function tipAnswer(wait: TipWait, body: unknown): bigint {
  const r = AnswerSchema.safeParse(body);
  if (!r.success) throw new TipError('invalid_request', 'body', 'must be { "percent": n } or { "amount": "…" }');
  const base = BigInt(wait.base);
  let tip: bigint;
  if ('percent' in r.data) {
    if (r.data.percent > 100) throw new TipError('invalid_request', 'percent', 'must be at most 100');
    tip = tipOf(base, r.data.percent);
  } else {
    try {
      tip = wait.currency === 'DOGE' ? parseKoinu(r.data.amount.trim()) : parseFiatMinor(r.data.amount.trim(), wait.currency);
    } catch {
      throw new TipError('invalid_request', 'amount', `must be an amount in ${wait.currency}`);
    }
    if (tip < 0n) throw new TipError('invalid_request', 'amount', 'must not be negative');
    if (tip > base) throw new TipError('invalid_request', 'amount', 'must be at most the sale (100 %)');
  }
  return tip;
}

interface Till {
  id: string;
  storeId: number;
}

/**
 * Opens the till's wait for a tip on `base` (minor units of `currency`), or answers null when the
 * till has no paired display (the till then keeps its own tip entry).
 */
export async function startTipWait(db: Db, till: Till, base: bigint, currency: string): Promise<TipScreen | null> {
  const displays = await db.prisma.customerDisplay.count({ where: { terminalId: till.id, ...inStore(till.storeId) } });
  if (!displays) return null;
  const store = await findStore(db, till.storeId);
  const stored = TipPercentsSchema.safeParse(store?.tipPercents);
  const wait: TipWait = {
    base: base.toString(),
    currency,
    percents: stored.success ? stored.data : [...DEFAULT_TIP_PERCENTS],
    answer: null,
  };
  await db.prisma.displayCart.upsert({
    where: { terminalId: till.id, ...inStore(till.storeId) },
    create: { terminalId: till.id, ...inStore(till.storeId), state: {}, tip: wait },
    update: { tip: wait },
  });
  return tipScreen(wait);
}

/** The till's wait as it stands: null when it waits for nothing. */
export async function tipWaitOf(db: Db, till: Till): Promise<TipWait | null> {
  const row = await db.prisma.displayCart.findFirst({ where: { terminalId: till.id, ...inStore(till.storeId) }, select: { tip: true } });
  return storedTipWait(row?.tip);
}

const END_WAIT_SQL = `UPDATE display_cart SET tip = NULL WHERE terminal_id = $1 AND store_id = $2 AND tip IS NOT NULL`;

/** Ends the wait (the payment is created, or the cashier skipped the tip). */
export async function endTipWait(db: Db, till: Till): Promise<void> {
  await db.prisma.$executeRawUnsafe(END_WAIT_SQL, till.id, inStore(till.storeId).storeId);
}

const ANSWER_SQL = `UPDATE display_cart SET tip = $1::jsonb WHERE terminal_id = $2 AND store_id = $3 AND tip = $4::jsonb`;

/** The display's answer: 409 unless its till waits for one (and has none yet), then 400 on a bad or excessive tip. */
export async function answerTip(db: Db, display: { terminalId: string; storeId: number }, body: unknown): Promise<void> {
  const till = { id: display.terminalId, storeId: display.storeId };
  const wait = await tipWaitOf(db, till);
  if (!wait || wait.answer !== null) throw new TipError('conflict', '', 'the till is not waiting for a tip');
  const tip = tipAnswer(wait, body);
  // Only over the wait as read: a second answer, or a wait the till ended or began anew
  // meanwhile, finds the row changed and is refused like any answer outside a wait.
  const n = await db.prisma.$executeRawUnsafe(
    ANSWER_SQL,
    JSON.stringify({ ...wait, answer: tip.toString() }),
    till.id,
    inStore(till.storeId).storeId,
    JSON.stringify(wait),
  );
  if (n !== 1) throw new TipError('conflict', '', 'the till is not waiting for a tip');
}
