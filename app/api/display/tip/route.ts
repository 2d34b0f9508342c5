// POST /api/display/tip (display cookie): the customer's tip, { "percent": n } or { "amount": "…" };
// 204, or 409 outside its till's wait (docs/counter.md#tips-on-the-customers-display).
import { handle } from '@/lib/api/handle';
import { appContext } from '@/lib/app-context';
import { displayTip } from '@/lib/api/display-tip-routes';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => displayTip((await appContext()).db, req));
}
