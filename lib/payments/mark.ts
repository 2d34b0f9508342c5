// The merchant decides a payment's exception (docs/api.md#payments-from-any-wallet): POST /api/v1/payments/<id>/mark
// {"as": "settled" | "invalid", "note": "…"}. settled: unpaid|accepted → confirmed
// (marked_settled); invalid: unpaid|accepted → declined (marked_invalid). Table rows
// merchant.* (table.ts); any other state is a conflict.
import { z } from 'zod';
import { inStore, type StoreScope } from '../stores';
import type { Db } from '../db';
import { applyTransition } from './apply';
import { canMark } from './predicates';

export const markRequest = z
  .object({
    as: z.enum(['settled', 'invalid']),
    note: z
      .string()
      .max(1000)
      .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), 'note holds a control character')
      .optional()
      .default(''),
  })
  .strict();
export type MarkRequest = z.infer<typeof markRequest>;

export type MarkResult = { ok: true } | { ok: false; error: 'not_found' | 'conflict'; message: string };

/** Applies the merchant's decision; `by` names who decided (a user's email, or the API key). */
export async function markPayment(
  db: Db,
  scope: StoreScope,
  id: string,
  req: MarkRequest,
  by: string,
  publicUrl: string,
  now = new Date(),
): Promise<MarkResult> {
  const trigger = req.as === 'settled' ? 'merchant.mark_settled' : 'merchant.mark_invalid';
  return db.prisma.$transaction(async (t) => {
    // A refund (docs/api.md#refunds) is not a sale the merchant decides: no such payment here.
    const cur = await t.payment.findFirst({
      where: { id, ...inStore(scope.storeId), refundOf: null },
      select: { id: true, status: true, exception: true, broadcastState: true },
    });
    if (!cur) return { ok: false, error: 'not_found', message: 'no payment with this id' } as const;
    if (!canMark(cur, req.as)) {
      return {
        ok: false,
        error: 'conflict',
        message: `a ${cur.status} payment cannot be marked ${req.as}: only unpaid or accepted ones can`,
      } as const;
    }
    const done = await applyTransition(t, {
      row: cur,
      trigger,
      publicUrl,
      now,
      data: { decisionAs: req.as, decisionNote: req.note, decidedBy: by, decidedAt: now },
    });
    if (!done) return { ok: false, error: 'conflict', message: 'the payment changed meanwhile; try again' } as const;
    return { ok: true } as const;
  });
}
