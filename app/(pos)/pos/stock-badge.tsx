'use client';
// "Out of stock" / "Low stock" on a tracked product (docs/catalog.md). Neither blocks a sale:
// goods in the customer's hand are sold, and stock may go negative.
import { useTranslations } from 'next-intl';
import s from './pos.module.css';

export function StockBadge({ stock, lowStock }: { stock: number | null; lowStock: number }) {
  const t = useTranslations('till');
  if (stock === null) return null;
  if (stock <= 0) return <span className={s.stockOut}>{t('outOfStock')}</span>;
  if (stock <= lowStock) return <span className={s.stockLow}>{t('lowStock')}</span>;
  return null;
}
