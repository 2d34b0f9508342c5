import Link from 'next/link';
import { NextIntlClientProvider } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import { clientMessages } from '@/i18n/client-messages';
import { LanguageSelect } from '@/app/_lib/language-select';
import { backOfficeUser } from '@/app/_lib/session';
import { SignOutButton } from './_components/sign-out';
import { AdminNav } from './_components/nav';
import { roleLabel } from './_components/labels';
import { ThemeSwitch } from '@/app/_lib/theme-switch';
import { appContext } from '@/lib/app-context';
import { isOperator, userStores } from '@/lib/auth';
import { StoreSelect } from './_components/store-select';
import './admin.css';

export const dynamic = 'force-dynamic';

// The back-office frame: brand, navigation and the signed-in user. Each page checks its own
// role (requirePageUser), so a direct link never bypasses the check.
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const user = await backOfficeUser();
  const isOwner = user?.role === 'owner';
  const { db } = await appContext();
  const [stores, operator] = user ? await Promise.all([userStores(db, user.id), isOperator(db, user.id)]) : [[], false];
  const current = stores.find((s) => s.id === user?.storeId);
  const [t, ta, to, messages] = await Promise.all([
    getTranslations('common'),
    getTranslations('admin'),
    getTranslations('operator'),
    clientMessages('admin'),
  ]);
  return (
    <NextIntlClientProvider messages={messages}>
      <div className="bo-frame">
        <header className="bo-top">
          <Link href="/admin" className="brand">
            <span className="brand-mark">Ð</span>Counter
          </Link>
          <span className="bo-top-title">{t('backOffice')}</span>
          {user ? (
            <div className="bo-user">
              {current ? <StoreSelect stores={stores} current={current} /> : null}
              <span className="bo-user-name" title={user.email}>
                {user.name || user.email}
                <small className="pill">{roleLabel(ta, user.role)}</small>
              </span>
              <ThemeSwitch />
              <LanguageSelect signedIn className="btn bo-btn-sm" />
              {operator ? (
                <Link href="/operator" className="btn bo-btn-sm">
                  {to('title')}
                </Link>
              ) : null}
              <Link href="/pos" className="btn bo-btn-sm">
                {t('cashier')}
              </Link>
              <SignOutButton />
            </div>
          ) : (
            <div className="bo-user">
              <ThemeSwitch />
            </div>
          )}
        </header>
        {user && user.role !== 'cashier' ? <AdminNav owner={isOwner} /> : null}
        <main className="bo-main">{children}</main>
      </div>
    </NextIntlClientProvider>
  );
}
