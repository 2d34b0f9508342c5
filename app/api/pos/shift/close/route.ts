// POST /api/pos/shift/close { "cash_counted", "user_id"? }: Close shift, recorded in the audit log (docs/counter.md#close-shift).
import { vendorRoute, postCloseShift } from '@/lib/api';

export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return vendorRoute(req, 'payments:write', (ctx, auth) => postCloseShift(ctx, auth, req));
}
