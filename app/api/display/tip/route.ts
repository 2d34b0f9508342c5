// POST /api/display/tip (display cookie): the customer's tip, { "percent": n } or { "amount": "…" };
// 204, or 409 outside its till's wait (docs/counter.md#tips-on-the-customers-display).
import { handle, displayTip } from '@/lib/api';
import { appContext } from '@/lib/app-context';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => displayTip((await appContext()).db, req));
}
