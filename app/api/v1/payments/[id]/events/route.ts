// Live updates for one payment as Server-Sent Events (docs/api.md#live-updates); see lib/live (docs/live.md).
import { vendorRoute, acquireStreamSlot } from '@/lib/api';
import { notFound } from '@/lib/errors';
import { log } from '@/lib/log';
import { canSeePayment } from '@/lib/payments';
import { paymentEventStream, paymentFeedHub, SSE_HEADERS } from '@/lib/live';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    const { id } = await params;
    if (!(await canSeePayment(ctx.db, auth, id))) throw notFound('no payment with this id');
    const slot = acquireStreamSlot(auth); // capped per user and per process (docs/api.md#live-updates)
    if (slot instanceof Response) return slot;
    const stream = paymentEventStream({
      hub: paymentFeedHub(ctx.db, ctx.cfg.publicUrl),
      id,
      signal: req.signal,
      onClose: (reason) => {
        slot.release();
        log.debug('payment feed closed', { payment: id, reason });
      },
    });
    return new Response(stream, {
      status: 200,
      headers: SSE_HEADERS,
    });
  });
}
