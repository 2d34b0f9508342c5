import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listProducts, pricingCurrency } from '@/lib/backoffice/catalog';
import { CatalogEditor } from './catalog-editor';

export const dynamic = 'force-dynamic';

export default async function CatalogPage() {
  await requirePageUser('manager', '/admin/catalog');
  const { db } = await appContext();
  const [products, currency] = await Promise.all([listProducts(db, { includeArchived: true }), pricingCurrency(db)]);
  const t = await getTranslations('adminCatalog');
  return (
    <>
      <div className="bo-head"><h1>{t('title')}</h1><p className="muted">{t('intro', { currency })}</p></div>
      <CatalogEditor initial={products} pricingCurrency={currency} />
    </>
  );
}
