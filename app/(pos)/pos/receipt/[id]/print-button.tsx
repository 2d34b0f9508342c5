'use client';
import { useTranslations } from 'next-intl';
import s from '../../pos.module.css';

export function PrintButton() {
  const t = useTranslations('common');
  return (
    <button type="button" className={s.primary} onClick={() => window.print()}>
      {t('print')}
    </button>
  );
}
