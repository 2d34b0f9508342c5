import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listProducts, pricingCurrency } from '@/lib/backoffice';
import { editableCategories, storedCategories } from '@/lib/catalog';
import { CatalogEditor } from './catalog-editor';
import { CatalogImport } from './catalog-import';
import { CategoryOrder } from './category-order';
import { findStore } from '@/lib/stores';

export const dynamic = 'force-dynamic';

export default async function CatalogPage() {
  const user = await requirePageUser('manager', '/admin/catalog');
  const { db } = await appContext();
  const [products, currency, store] = await Promise.all([
    listProducts(db, user.storeId, { includeArchived: true }),
    pricingCurrency(db, user.storeId),
    findStore(db, user.storeId),
  ]);
  // Products per category (the live ones, as the till shows them), for the category list.
  const counts: Record<string, number> = {};
  for (const p of products) if (!p.archived && p.category) counts[p.category] = (counts[p.category] ?? 0) + 1;
  const listed = storedCategories(store?.categories);
  const order = editableCategories(listed, Object.keys(counts));
  const t = await getTranslations('adminCatalog');
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro', { currency })}</p>
      </div>
      <CatalogImport />
      <CategoryOrder listed={listed} initial={order} counts={counts} />
      <CatalogEditor initial={products} pricingCurrency={currency} categories={order} />
    </>
  );
}
