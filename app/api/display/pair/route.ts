// POST /api/display/pair { code } (no session): this browser becomes the customer display of
// the till that showed the code (docs/counter.md#the-customers-display).
import { handle } from '@/lib/api/handle';
import { appContext } from '@/lib/app-context';
import { pairDisplay } from '@/lib/api/display-routes';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => pairDisplay((await appContext()).db, req));
}
