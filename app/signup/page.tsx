import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { AuthForm } from '@/app/_lib/auth-form';
import { AuthCard, newPasswordField } from '@/app/_lib/auth-card';
import { config } from '@/lib/config';

export const dynamic = 'force-dynamic';

// Open sign-up (SIGNUP=open, docs/configuration.md): an account and a new store of its own, whose
// owner it is; then the store's settings, to set its wallet. With SIGNUP off, no such page.
export default async function SignupPage() {
  if (config().signup !== 'open') notFound();
  const t = await getTranslations('signup');
  return (
    <AuthCard title={t('title')}>
      <p className="muted">{t('intro')}</p>
      <AuthForm
        endpoint="/api/auth/signup"
        next="/admin/settings"
        submitLabel={t('submit')}
        fields={[
          { name: 'store_name', label: t('storeName'), type: 'text', autoComplete: 'organization' },
          { name: 'name', label: t('name'), type: 'text', autoComplete: 'name' },
          { name: 'email', label: t('email'), type: 'email', autoComplete: 'username' },
          newPasswordField(t('password'), (n) => t('hint', { n })),
        ]}
      />
      <p className="muted">
        <Link href="/login">{t('signIn')}</Link>
      </p>
    </AuthCard>
  );
}
