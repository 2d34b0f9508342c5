// POST /api/pos/shift/close { "cash_counted", "user_id"? }: Close shift, recorded in the audit log (docs/counter.md#close-shift).
import { vendorRoute } from '@/lib/api/vendor-route';
import { postCloseShift } from '@/lib/api/shift-routes';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return vendorRoute(req, 'payments:write', (ctx, auth) => postCloseShift(ctx, auth, req));
}
