'use client';
// The products pane (docs/catalog.md): the search box and the category tabs over the product
// grid; a tap adds one to the cart, and a badge shows how many are in it. The search and the
// category live in useProductFilter, above the pane, so they survive a visit to the keypad.
import { useMemo, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { PosProduct } from '@/lib/pos';
import { ALL, filterProducts } from '@/lib/pos/client';
import { CategoryTabs, CATEGORY_PANEL_ID, categoryTabId } from './category-tabs';
import { ProductSearch } from './product-search';
import { StockBadge } from './stock-badge';
import { Icon } from './bits';
import { Money } from './pricing';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './pos.module.css';

export function useProductFilter(products: PosProduct[]) {
  const [category, setCategory] = useState(ALL);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterProducts(products, category, query), [products, category, query]);
  return { category, setCategory, query, setQuery, shown };
}

export type ProductFilter = ReturnType<typeof useProductFilter>;

export function ProductPane({
  products,
  categories,
  filter,
  inCart,
  onAdd,
  currency,
}: {
  products: PosProduct[];
  categories: string[];
  filter: ProductFilter;
  inCart: Map<string, number>;
  onAdd: (p: PosProduct) => void;
  currency: string;
}) {
  const t = useTranslations('till');
  const { shown, query, category } = filter;
  if (!products.length) return <p className={s.empty}>{t('noProducts')}</p>;
  // Enter in the search box adds the first match (a code typed or scanned into it).
  const pickFirstMatch = () => {
    if (!shown.length) return;
    onAdd(shown[0]);
    filter.setQuery('');
  };
  return (
    <>
      <div className={s.browse}>
        <ProductSearch query={query} onQuery={filter.setQuery} onPickFirst={pickFirstMatch} />
        {categories.length ? <CategoryTabs categories={categories} selected={category} onSelect={filter.setCategory} /> : null}
      </div>
      <div
        className={s.grid}
        id={CATEGORY_PANEL_ID}
        role={categories.length ? 'tabpanel' : undefined}
        aria-labelledby={categories.length ? categoryTabId([ALL, ...categories].indexOf(category)) : undefined}
      >
        {shown.length === 0 ? <p className={s.empty}>{t('noMatches', { query })}</p> : null}
        {shown.map((p) => (
          <ProductButton key={p.id} product={p} count={inCart.get(p.id) ?? 0} onAdd={onAdd} currency={currency} />
        ))}
      </div>
    </>
  );
}

function ProductButton({
  product: p,
  count,
  onAdd,
  currency,
}: {
  product: PosProduct;
  count: number;
  onAdd: (p: PosProduct) => void;
  currency: string;
}) {
  const t = useTranslations('till');
  const hydrated = useHydrated();
  return (
    <button type="button" className={s.product} disabled={!hydrated} onClick={() => onAdd(p)}>
      {count ? (
        <span className={s.inCart} aria-hidden="true">
          {count}
        </span>
      ) : null}
      <Icon icon={p.icon} name={p.name} />
      {/* named by its visible text, with "Add" for screen readers where the language puts it ("Add Coffee", "Kaffee hinzufügen") */}
      {t.rich('addName', { sr: (c) => <span className={s.srOnly}>{c}</span>, name: () => <span className={s.pName}>{p.name}</span> })}
      <span className={s.pPrice}>
        <Money currency={currency} k={BigInt(p.priceKoinu)} />
        {p.taxRateBp ? <small> {t('productTax', { rate: p.taxRateBp / 100 })}</small> : null}
      </span>
      <StockBadge stock={p.stock} lowStock={p.lowStock} />
    </button>
  );
}
