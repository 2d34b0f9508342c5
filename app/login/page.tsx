import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/app/_lib/auth-card';
import { AuthForm } from '@/app/_lib/auth-form';
import { currentUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { safeNextPath, userCount } from '@/lib/auth';

export const dynamic = 'force-dynamic';

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  // Only a same-origin path survives (lib/auth/safe-next.ts); the form gets nothing else.
  const next = safeNextPath((await searchParams).next, '/');
  if ((await userCount((await appContext()).db)) === 0) redirect('/setup');
  const user = await currentUser();
  // A PIN session (till only) is shown the form: the back office wants the password.
  if (user && !user.tillOnly) redirect(next !== '/' ? next : user.role === 'cashier' ? '/pos' : '/admin');
  const t = await getTranslations('login');
  return (
    <AuthCard title={t('title')}>
      <AuthForm
        endpoint="/api/auth/login"
        next={next}
        submitLabel={t('title')}
        fields={[
          { name: 'email', label: t('email'), type: 'email', autoComplete: 'username' },
          { name: 'password', label: t('password'), type: 'password', autoComplete: 'current-password' },
        ]}
      />
    </AuthCard>
  );
}
