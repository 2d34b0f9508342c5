// The checkout page's live status (docs/using-counter.md, "The customer's checkout page"):
// Server-Sent Events for one payment, with no sign-in (the id is the capability, as for
// /dc/<id>). The same stream and shared hub as the vendor's /api/v1/payments/<id>/events
// (lib/live, docs/live.md), but each event holds only the customer's fields
// (lib/checkout/state.ts). Streams per payment are capped like a user's (10), and the process
// cap (MAX_STREAMS) applies; a refund's id or an unknown id is 404.
import { appContext } from '@/lib/app-context';
import { handle } from '@/lib/api/handle';
import { jsonError } from '@/lib/api/respond';
import { log } from '@/lib/log';
import { checkoutExists } from '@/lib/checkout/load';
import { checkoutLive } from '@/lib/checkout/state';
import { paymentEventStream, paymentFeedHub, SSE_HEADERS, streamSlots, STREAMS_PER_USER } from '@/lib/live';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const ctx = await appContext();
    if (!(await checkoutExists(ctx.db, id))) return jsonError(404, 'not_found', 'no payment with this id');
    const slot = streamSlots().acquire(`checkout:${id}`);
    if (!slot.ok) {
      return slot.reason === 'user'
        ? jsonError(429, 'too_many_streams', `at most ${STREAMS_PER_USER} live streams may be open at once per payment`, { 'Retry-After': '5' })
        : jsonError(503, 'unavailable', 'this server has as many live streams open as it serves; retry later', { 'Retry-After': '5' });
    }
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
  }, { req, group: 'relay' });
}
