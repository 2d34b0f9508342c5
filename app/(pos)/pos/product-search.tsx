'use client';
// The till's search box (docs/catalog.md): filters the grid by name, SKU and barcode as the
// cashier types; Enter adds the first match (a code typed or scanned into it adds its product).
import { useTranslations } from 'next-intl';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './pos.module.css';

export function ProductSearch({ query, onQuery, onPickFirst }: { query: string; onQuery: (q: string) => void; onPickFirst: () => void }) {
  const t = useTranslations('till');
  const hydrated = useHydrated();
  return (
    <input
      type="search"
      className={s.search}
      aria-label={t('searchProducts')}
      placeholder={t('searchHint')}
      value={query}
      maxLength={100}
      autoComplete="off"
      spellCheck={false}
      enterKeyHint="go"
      disabled={!hydrated}
      onChange={(e) => onQuery(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          onPickFirst();
        } else if (e.key === 'Escape' && query) {
          e.preventDefault();
          onQuery('');
        }
      }}
    />
  );
}
