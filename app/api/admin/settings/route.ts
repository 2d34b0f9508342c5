import { json, adminRoute, readJson } from '@/lib/api';
import { forbidden } from '@/lib/errors';
import { readSettings, changeSettings } from '@/lib/backoffice';
import { OWNER_ONLY_FIELDS } from '@/lib/receipts';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    return json(await readSettings(ctx.db, a.user.storeId));
  });
}

// Managers edit the store; only the owner changes the receiving wallet. Every change is audited.
export function PATCH(req: Request) {
  return adminRoute(req, 'manager', async (ctx, a) => {
    const body = await readJson(req);
    // Owner-only settings: the pricing currency changes what every price means (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing); the time
    // zone and the SMTP server (docs/configuration.md). The receiving wallet is checked in changeSettings.
    const ownerOnly = ['pricing_currency', ...OWNER_ONLY_FIELDS].find(
      (f) => a.user.role !== 'owner' && body && typeof body === 'object' && Object.hasOwn(body, f),
    );
    if (ownerOnly) throw forbidden(`${ownerOnly}: only the owner changes this setting`);
    return json(await changeSettings(ctx.db, ctx.network, a.user, body));
  });
}
