// GET /api/display/events (display cookie): the paired display's live stream, Server-Sent
// Events fed by database notifications (docs/counter.md#the-customers-display, docs/live.md).
import { handle, displayEvents } from '@/lib/api';
import { appContext } from '@/lib/app-context';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => {
    const ctx = await appContext();
    return displayEvents(ctx.db, ctx.cfg.publicUrl, req);
  });
}
