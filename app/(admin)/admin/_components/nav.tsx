'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';

const ITEMS = [
  { href: '/admin', label: 'overview', exact: true },
  { href: '/admin/invoices', label: 'invoices' },
  { href: '/admin/reports', label: 'reports' },
  { href: '/admin/catalog', label: 'catalog' },
  { href: '/admin/stock', label: 'stock' },
  { href: '/admin/settings', label: 'settings' },
  { href: '/admin/terminals', label: 'terminals' },
  { href: '/admin/users', label: 'users' },
  { href: '/admin/audit', label: 'audit', owner: true },
  { href: '/admin/node', label: 'node' },
  { href: '/admin/rates', label: 'rates' },
] as const;

export function AdminNav({ owner }: { owner: boolean }) {
  const t = useTranslations('nav');
  const path = usePathname();
  return (
    <nav className="bo-nav" aria-label={t('label')}>
      {ITEMS.filter((i) => owner || !('owner' in i)).map((i) => {
        const active = 'exact' in i ? path === i.href : path === i.href || path.startsWith(i.href + '/');
        return (
          <Link
            key={i.href}
            href={i.href}
            className={active ? 'bo-nav-item active' : 'bo-nav-item'}
            aria-current={active ? 'page' : undefined}
          >
            {t(i.label)}
          </Link>
        );
      })}
    </nav>
  );
}
