import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listProducts, pricingCurrency } from '@/lib/backoffice/catalog';
import { CatalogEditor } from './catalog-editor';

export const dynamic = 'force-dynamic';

export default async function CatalogPage() {
  await requirePageUser('manager', '/admin/catalog');
  const { db } = await appContext();
  const [products, currency] = await Promise.all([listProducts(db, { includeArchived: true }), pricingCurrency(db)]);
  return (
    <>
      <div className="bo-head"><h1>Catalog</h1><p className="muted">Products on the cashier screen&apos;s grid. Prices in {currency} (the store&apos;s pricing currency, set on the Rates page); tax as a percentage of the price.</p></div>
      <CatalogEditor initial={products} pricingCurrency={currency} />
    </>
  );
}
