// My shift's cash drawer over HTTP (docs/counter.md#close-shift): GET /api/pos/shift and
// POST /api/pos/shift/close. A signed-in user (password or PIN session) reads and closes its own
// shift; a manager or owner may name another user's with `user_id`. A cashier naming anyone
// else is 403. API keys have no shift.
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { roleAtLeast } from '../auth';
import { closeShift, drawer } from '../cash';
import { InvalidRequestError, fromZod } from '../errors';
import type { Granted } from './vendor-route';
import { json } from './respond';
import { errorResponse } from './error-table';
import { parseJsonOrUndefined, readBodyText } from './body';

const UserId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a user id');
const CloseBody = z
  .object({
    cash_counted: z.string({ message: 'is required: the cash counted in the drawer, such as "120.50"' }).max(40, 'too long'),
    user_id: UserId.optional(),
  })
  .strict();

/** The user whose shift is asked for: the caller's own, or another's for a manager or owner (403 for a cashier). */
async function shiftUser(ctx: AppContext, auth: Granted, asked: string | null | undefined): Promise<string | Response> {
  if (auth.kind !== 'session') return errorResponse('forbidden', 'a shift belongs to a signed-in user: API keys have none');
  if (!asked || asked === auth.user.id) return auth.user.id;
  if (!roleAtLeast(auth.user.role, 'manager')) return errorResponse('forbidden', 'a cashier reads and closes only its own shift');
  // Only a member of the caller's store has a shift there.
  const m = await ctx.db.prisma.membership.findUnique({
    where: { storeId_userId: { storeId: auth.storeId, userId: asked } },
    select: { userId: true },
  });
  return m ? m.userId : errorResponse('not_found', 'unknown user');
}

export async function getShift(ctx: AppContext, auth: Granted, req: Request): Promise<Response> {
  const asked = new URL(req.url).searchParams.get('user_id');
  if (asked !== null) {
    const p = UserId.safeParse(asked);
    if (!p.success) throw new InvalidRequestError('user_id', p.error.issues[0]?.message ?? 'invalid');
  }
  const who = await shiftUser(ctx, auth, asked);
  if (who instanceof Response) return who;
  return json(await drawer(ctx.db, auth.storeId, who));
}

export async function postCloseShift(ctx: AppContext, auth: Granted, req: Request): Promise<Response> {
  const parsed = CloseBody.safeParse(parseJsonOrUndefined(await readBodyText(req, 4096)) ?? null);
  if (!parsed.success) throw fromZod(parsed.error);
  const who = await shiftUser(ctx, auth, parsed.data.user_id);
  if (who instanceof Response) return who;
  return json(await closeShift(ctx.db, auth.storeId, auth.user!.id, who, parsed.data.cash_counted));
}
