// GET /api/display/events (display cookie): the paired display's live stream, Server-Sent
// Events fed by database notifications (docs/counter.md#the-customers-display, docs/live.md).
import { handle } from '@/lib/api/handle';
import { appContext } from '@/lib/app-context';
import { displayEvents } from '@/lib/api/display-routes';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => {
    const ctx = await appContext();
    return displayEvents(ctx.db, ctx.cfg.publicUrl, req);
  });
}
