'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const ITEMS = [
  { href: '/admin', label: 'Overview', exact: true },
  { href: '/admin/invoices', label: 'Invoices' },
  { href: '/admin/reports', label: 'Reports' },
  { href: '/admin/catalog', label: 'Catalog' },
  { href: '/admin/settings', label: 'Settings' },
  { href: '/admin/users', label: 'Users', owner: true },
  { href: '/admin/audit', label: 'Audit log', owner: true },
  { href: '/admin/node', label: 'Node' },
  { href: '/admin/rates', label: 'Rates' },
];

export function AdminNav({ owner }: { owner: boolean }) {
  const path = usePathname();
  return (
    <nav className="bo-nav" aria-label="Back office">
      {ITEMS.filter((i) => owner || !i.owner).map((i) => {
        const active = i.exact ? path === i.href : path === i.href || path.startsWith(i.href + '/');
        return (
          <Link key={i.href} href={i.href} className={active ? 'bo-nav-item active' : 'bo-nav-item'} aria-current={active ? 'page' : undefined}>
            {i.label}
          </Link>
        );
      })}
    </nav>
  );
}
