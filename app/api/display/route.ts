// GET /api/display (display cookie): 200 { paired: true } for a paired display, else 401
// (docs/counter.md#the-customers-display). The display page asks when its stream is refused.
import { handle } from '@/lib/api/handle';
import { appContext } from '@/lib/app-context';
import { displayStatus } from '@/lib/api/display-routes';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return handle(async () => displayStatus((await appContext()).db, req));
}
