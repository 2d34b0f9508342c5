// GET /api/pos/lock (terminal cookie, no session): the lock screen's list (docs/counter.md).
import { handle, lockScreen } from '@/lib/api';
import { appContext } from '@/lib/app-context';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => lockScreen((await appContext()).db, req));
}
