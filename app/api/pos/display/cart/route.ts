// PUT /api/pos/display/cart (session + terminal cookie): the cart this till shows now, or the
// payment it charges, for its customer displays (docs/counter.md#the-customers-display).
import { handle } from '@/lib/api/handle';
import { appContext } from '@/lib/app-context';
import { publishDisplayCart } from '@/lib/api/display-routes';

export const dynamic = 'force-dynamic';

export function PUT(req: Request) {
  return handle(async () => publishDisplayCart((await appContext()).db, req));
}
