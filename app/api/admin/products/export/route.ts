import { adminRoute, NO_STORE } from '@/lib/api';
import { exportCatalogCsv } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

// The whole catalog, archived products too, as CSV the import takes back (docs/catalog.md).
export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const stamp = new Date().toISOString().slice(0, 10);
    return new Response(await exportCatalogCsv(ctx.db, a.user.storeId), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="products-${stamp}.csv"`,
        ...NO_STORE,
      },
    });
  });
}
