'use client';
// "Sell from": the Products and Keypad tabs over one tab panel. The arrow keys, Home and End move
// between the tabs and select, as the category tabs do.
import { useRef, type KeyboardEvent } from 'react';
import { useTranslations } from 'next-intl';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './pos.module.css';

export type SellTab = 'products' | 'keypad';
const ORDER = ['products', 'keypad'] as const;

export function SellTabs({ tab, onTab, children }: { tab: SellTab; onTab: (t: SellTab) => void; children: React.ReactNode }) {
  const t = useTranslations('till');
  const hydrated = useHydrated();
  const refs = useRef<Record<SellTab, HTMLButtonElement | null>>({ products: null, keypad: null });

  function onKey(e: KeyboardEvent<HTMLButtonElement>) {
    const i = ORDER.indexOf(tab);
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowLeft'
        ? ORDER[(i + 1) % 2]
        : e.key === 'Home'
          ? ORDER[0]
          : e.key === 'End'
            ? ORDER[1]
            : null;
    if (!next) return;
    e.preventDefault();
    onTab(next);
    refs.current[next]?.focus();
  }

  return (
    <section className={s.catalog} aria-label={t('productsAndKeypad')}>
      <div className={s.tabs} role="tablist" aria-label={t('sellFrom')}>
        {ORDER.map((tb) => (
          <button
            key={tb}
            type="button"
            role="tab"
            id={`till-tab-${tb}`}
            aria-controls="till-tabpanel"
            aria-selected={tab === tb}
            tabIndex={tab === tb ? 0 : -1}
            ref={(el) => {
              refs.current[tb] = el;
            }}
            className={tab === tb ? s.tabOn : s.tab}
            disabled={!hydrated}
            onClick={() => onTab(tb)}
            onKeyDown={onKey}
          >
            {t(tb)}
          </button>
        ))}
      </div>
      <div id="till-tabpanel" role="tabpanel" aria-labelledby={`till-tab-${tab}`} className={s.tabPanel}>
        {children}
      </div>
    </section>
  );
}
