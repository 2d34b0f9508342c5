// GET /api/display (display cookie): 200 { paired: true } for a paired display, else 401
// (docs/counter.md#the-customers-display). The display page asks when its stream is refused.
import { handle, displayStatus } from '@/lib/api';
import { appContext } from '@/lib/app-context';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => displayStatus((await appContext()).db, req));
}
