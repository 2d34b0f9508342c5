import Link from 'next/link';
import { NextIntlClientProvider } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import { clientMessages } from '@/i18n/client-messages';
import { LanguageSelect } from '@/app/_lib/language-select';
import { ThemeSwitch } from '@/app/_lib/theme-switch';
import { SignOutButton } from '../admin/_components/sign-out';
import '../admin/admin.css';

export const dynamic = 'force-dynamic';

// The operator's frame: the back office's look, without a store's navigation (the operator sees
// no store's sales, catalog or users from here). The page checks who may see it.
export default async function OperatorLayout({ children }: { children: React.ReactNode }) {
  const [t, to, messages] = await Promise.all([getTranslations('common'), getTranslations('operator'), clientMessages('admin')]);
  return (
    <NextIntlClientProvider messages={messages}>
      <div className="bo-frame">
        <header className="bo-top">
          <Link href="/admin" className="brand">
            <span className="brand-mark">Ð</span>Counter
          </Link>
          <span className="bo-top-title">{to('title')}</span>
          <div className="bo-user">
            <ThemeSwitch />
            <LanguageSelect signedIn className="btn bo-btn-sm" />
            <Link href="/admin" className="btn bo-btn-sm">
              {t('backOffice')}
            </Link>
            <SignOutButton />
          </div>
        </header>
        <main className="bo-main">{children}</main>
      </div>
    </NextIntlClientProvider>
  );
}
