import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { AuthForm } from '@/app/_lib/auth-form';
import { AuthCard, newPasswordField } from '@/app/_lib/auth-card';
import { appContext } from '@/lib/app-context';
import { userCount } from '@/lib/auth';

export const dynamic = 'force-dynamic';

// First run: the owner account, in the browser's language (its cookie or Accept-Language).
export default async function SetupPage() {
  if ((await userCount((await appContext()).db)) > 0) redirect('/login');
  const t = await getTranslations('setup');
  return (
    <AuthCard title={t('title')}>
      <p className="muted">{t('intro')}</p>
      <AuthForm
        endpoint="/api/auth/setup"
        next="/admin"
        submitLabel={t('submit')}
        fields={[
          { name: 'code', label: t('code'), type: 'text', autoComplete: 'one-time-code' },
          { name: 'name', label: t('name'), type: 'text', autoComplete: 'name', required: false },
          { name: 'email', label: t('email'), type: 'email', autoComplete: 'username' },
          newPasswordField(t('password'), (n) => t('hint', { n })),
        ]}
      />
    </AuthCard>
  );
}
