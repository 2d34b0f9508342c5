// GET /api/pos/shift[?user_id=]: the cash expected in the drawer for the current shift (docs/counter.md#close-shift).
import { vendorRoute, getShift } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return vendorRoute(req, 'payments:read', (ctx, auth) => getShift(ctx, auth, req));
}
