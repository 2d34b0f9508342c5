// PUT /api/pos/display/cart (session + terminal cookie): the cart this till shows now, or the
// payment it charges, for its customer displays (docs/counter.md#the-customers-display).
import { handle, publishDisplayCart } from '@/lib/api';
import { appContext } from '@/lib/app-context';

export const dynamic = 'force-dynamic';

export function PUT(req: Request) {
  return handle(async () => publishDisplayCart((await appContext()).db, req));
}
