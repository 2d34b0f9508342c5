// GET /api/pos/lock (terminal cookie, no session): the lock screen's list (docs/counter.md).
import { handle } from '@/lib/api/handle';
import { appContext } from '@/lib/app-context';
import { lockScreen } from '@/lib/api/pin-routes';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => lockScreen((await appContext()).db, req));
}
