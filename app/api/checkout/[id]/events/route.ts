// The checkout page's live status (docs/using-counter.md, "The customer's checkout page"):
// Server-Sent Events for one payment, with no sign-in (the id is the capability, as for
// /dc/<id>). The same stream and shared hub as the vendor's /api/v1/payments/<id>/events
// (lib/live, docs/live.md), but each event holds only the customer's fields
// (lib/checkout/state.ts). Anonymous streams have their own, smaller budget inside the process's
// (lib/live/stream-slots.ts, docs/security.md): at most 10 per payment and
// MAX_CHECKOUT_STREAMS_PER_CLIENT per client address (429), MAX_CHECKOUT_STREAMS in all (503), so
// they never take the tills' streams; a refund's id or an unknown id is 404.
import { appContext } from '@/lib/app-context';
import { handle, acquireCheckoutStreamSlot } from '@/lib/api';
import { notFound } from '@/lib/errors';
import { log } from '@/lib/log';
import { checkoutExists, checkoutLive } from '@/lib/checkout';
import { paymentEventStream, paymentFeedHub, SSE_HEADERS } from '@/lib/live';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(
    async () => {
      const { id } = await params;
      const ctx = await appContext();
      if (!(await checkoutExists(ctx.db, id))) throw notFound('no payment with this id');
      const slot = acquireCheckoutStreamSlot(req, id);
      if (slot instanceof Response) return slot;
      const stream = paymentEventStream({
        hub: paymentFeedHub(ctx.db, ctx.cfg.publicUrl),
        id,
        present: checkoutLive,
        signal: req.signal,
        onClose: (reason) => {
          slot.release();
          log.debug('checkout feed closed', { payment: id, reason });
        },
      });
      return new Response(stream, {
        status: 200,
        headers: {
          ...SSE_HEADERS,
          'X-Robots-Tag': 'noindex',
        },
      });
    },
    { req, group: 'relay' },
  );
}
