import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { trackedProducts } from '@/lib/stock';
import { StockTable } from './stock-table';

export const dynamic = 'force-dynamic';

// The stock page (docs/catalog.md#stock): tracked products, low stock first, each with an adjust form.
export default async function StockPage() {
  const user = await requirePageUser('manager', '/admin/stock');
  const { db } = await appContext();
  const [products, t] = await Promise.all([trackedProducts(db, user.storeId), getTranslations('adminStock')]);
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </div>
      <StockTable products={products} />
    </>
  );
}
