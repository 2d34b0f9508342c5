'use client';
import { useTranslations } from 'next-intl';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './checkout.module.css';

export function PrintButton() {
  const t = useTranslations('common');
  // A tap before hydration would print nothing (app/_lib/use-hydrated.ts): the button waits.
  const hydrated = useHydrated();
  return (
    <button type="button" className={s.secondary} disabled={!hydrated} onClick={() => window.print()}>
      {t('print')}
    </button>
  );
}
