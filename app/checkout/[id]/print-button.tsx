'use client';
import { useTranslations } from 'next-intl';
import s from './checkout.module.css';

export function PrintButton() {
  const t = useTranslations('common');
  return (
    <button type="button" className={s.secondary} onClick={() => window.print()}>
      {t('print')}
    </button>
  );
}
