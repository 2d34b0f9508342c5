'use client';
import { useTranslations } from 'next-intl';
import { ActionButton } from '@/app/_lib/action-button';
import s from './checkout.module.css';

export function PrintButton() {
  const t = useTranslations('common');
  // A tap before hydration would print nothing: the button waits (app/_lib/action-button.tsx).
  return (
    <ActionButton className={s.secondary} onClick={() => window.print()}>
      {t('print')}
    </ActionButton>
  );
}
