// POST /api/display/pair { code } (no session): this browser becomes the customer display of
// the till that showed the code (docs/counter.md#the-customers-display).
import { handle, pairDisplay } from '@/lib/api';
import { appContext } from '@/lib/app-context';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return handle(async () => pairDisplay((await appContext()).db, req));
}
