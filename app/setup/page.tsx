import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { AuthForm } from '@/app/_lib/auth-form';
import { LanguageSelect } from '@/app/_lib/language-select';
import { appContext } from '@/lib/app-context';
import { userCount, MIN_PASSWORD_LENGTH } from '@/lib/auth';

export const dynamic = 'force-dynamic';

// First run: the owner account, in the browser's language (its cookie or Accept-Language).
export default async function SetupPage() {
  if ((await userCount((await appContext()).db)) > 0) redirect('/login');
  const t = await getTranslations('setup');
  return (
    <main className="auth-shell">
      <div className="auth-card">
        <Link href="/" className="brand">
          <span className="brand-mark">Ð</span>Counter
        </Link>
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        <AuthForm
          endpoint="/api/auth/setup"
          next="/admin"
          submitLabel={t('submit')}
          fields={[
            { name: 'code', label: t('code'), type: 'text', autoComplete: 'one-time-code' },
            { name: 'name', label: t('name'), type: 'text', autoComplete: 'name', required: false },
            { name: 'email', label: t('email'), type: 'email', autoComplete: 'username' },
            {
              name: 'password',
              label: t('password'),
              type: 'password',
              autoComplete: 'new-password',
              hint: t('hint', { n: MIN_PASSWORD_LENGTH }),
            },
          ]}
        />
        <LanguageSelect signedIn={false} />
      </div>
    </main>
  );
}
