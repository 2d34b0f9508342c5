'use client';
// The till's category tabs (docs/catalog.md): "All" first, then the store's categories in its
// order. The arrow keys, Home and End move between them and select, as the Products/Keypad tabs do.
import { useRef, type KeyboardEvent } from 'react';
import { useTranslations } from 'next-intl';
import { ALL } from '@/lib/pos/client';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './pos.module.css';

export const CATEGORY_PANEL_ID = 'till-category-panel';
export const categoryTabId = (i: number) => `till-category-${i}`;

export function CategoryTabs({
  categories,
  selected,
  onSelect,
}: {
  categories: readonly string[];
  selected: string;
  onSelect: (c: string) => void;
}) {
  const t = useTranslations('till');
  const hydrated = useHydrated();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const all = [ALL, ...categories];

  function onKey(e: KeyboardEvent<HTMLButtonElement>, i: number) {
    const n = all.length;
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % n
        : e.key === 'ArrowLeft'
          ? (i - 1 + n) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : null;
    if (next === null) return;
    e.preventDefault();
    onSelect(all[next]);
    refs.current[next]?.focus();
  }

  return (
    <div className={s.catTabs} role="tablist" aria-label={t('categories')}>
      {all.map((c, i) => (
        <button
          key={c || '(all)'}
          type="button"
          role="tab"
          id={categoryTabId(i)}
          aria-controls={CATEGORY_PANEL_ID}
          aria-selected={selected === c}
          tabIndex={selected === c ? 0 : -1}
          ref={(el) => {
            refs.current[i] = el;
          }}
          className={selected === c ? s.catTabOn : s.catTab}
          disabled={!hydrated}
          onClick={() => onSelect(c)}
          onKeyDown={(e) => onKey(e, i)}
        >
          {c === ALL ? t('allCategories') : c}
        </button>
      ))}
    </div>
  );
}
