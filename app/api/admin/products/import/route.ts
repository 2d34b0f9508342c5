import { json, adminRoute, readBodyBytes } from '@/lib/api';
import { DomainError } from '@/lib/errors';
import { decodeCatalogCsv, importCatalogCsv, IMPORT_MAX_BYTES } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';

// CSV import (docs/catalog.md): ?dry_run=1 answers the plan and changes nothing; otherwise the
// plan is applied in one transaction (200), or nothing is applied when a row has an error (422).
export function POST(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const type = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'text/csv') throw new DomainError('unsupported_media_type', 'send the file as text/csv');
    const dryRun = ['1', 'true'].includes(new URL(req.url).searchParams.get('dry_run') ?? '');
    // Not UTF-8: a 400 in the dry run and the import alike, before any row is read.
    const text = decodeCatalogCsv(await readBodyBytes(req, IMPORT_MAX_BYTES));
    const { plan } = await importCatalogCsv(ctx.db, a.user.storeId, text, { dryRun, userId: a.user.id });
    return json(plan, plan.errors.length && !dryRun ? 422 : 200);
  });
}
