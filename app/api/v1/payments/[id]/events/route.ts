// Live updates for one payment as Server-Sent Events (DESIGN.md §5); see lib/relay/payment-feed.
import { vendorRoute } from '@/lib/api/vendor-route';
import { jsonError, transient } from '@/lib/api/respond';
import { vendorPaymentView } from '@/lib/relay/payment-view';
import { log } from '@/lib/log';
import { canSeePayment } from '@/lib/relay/sales-scope';
import { paymentEventStream, openFeedCount, MAX_OPEN_FEEDS } from '@/lib/relay/payment-feed';

export const dynamic = 'force-dynamic';

const PROBE = { status: true, confirmations: true, txid: true, broadcastState: true, updatedAt: true, expiresAt: true } as const;

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return vendorRoute(req, 'payments:read', async (ctx, auth) => {
    const { id } = await params;
    if (!(await canSeePayment(ctx.db, id, auth.ownSalesOf))) {
      return jsonError(404, 'not_found', 'no payment with this id');
    }
    if (openFeedCount() >= MAX_OPEN_FEEDS) return transient(503); // EventSource retries
    const stream = paymentEventStream({
      signal: req.signal,
      onClose: (reason) => log.debug('payment feed closed', { payment: id, reason }),
      probe: () => ctx.db.prisma.payment.findUnique({ where: { id }, select: PROBE }),
      view: async () => {
        const row = await ctx.db.prisma.payment.findUnique({ where: { id } });
        return row ? vendorPaymentView(row, ctx.cfg.publicUrl, new Date()) : null;
      },
    });
    return new Response(stream, {
      status: 200,
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      },
    });
  });
}
