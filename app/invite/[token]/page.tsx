import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { AuthForm } from '@/app/_lib/auth-form';
import { AuthCard, newPasswordField } from '@/app/_lib/auth-card';
import { backOfficeUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { openInvite } from '@/lib/operator';
import { AcceptInvite } from './accept-invite';

export const dynamic = 'force-dynamic';

// A store's invite (docs/architecture.md#data): a visitor creates the owner's account (its email
// the invite's), a signed-in user accepts it. A used, expired or unknown invite is a 404 page.
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await openInvite((await appContext()).db, token);
  if (!invite) notFound();
  const [user, t] = await Promise.all([backOfficeUser(), getTranslations('invite')]);
  const here = `/invite/${encodeURIComponent(token)}`;
  return (
    <AuthCard title={t('title', { store: invite.storeName })} signedIn={!!user}>
      {user ? (
        <>
          <p className="muted">{t('acceptIntro', { email: user.email, store: invite.storeName })}</p>
          <AcceptInvite endpoint={`/api/invites/${encodeURIComponent(token)}/accept`} label={t('accept')} />
        </>
      ) : (
        <>
          <p className="muted">{t('createIntro', { email: invite.email })}</p>
          <AuthForm
            endpoint={`/api/invites/${encodeURIComponent(token)}/account`}
            next="/admin/settings"
            submitLabel={t('createAccount')}
            fields={[
              { name: 'name', label: t('name'), type: 'text', autoComplete: 'name' },
              newPasswordField(t('password'), (n) => t('hint', { n })),
            ]}
          />
          <p className="muted">
            <Link href={`/login?next=${encodeURIComponent(here)}`}>{t('signInInstead')}</Link>
          </p>
        </>
      )}
    </AuthCard>
  );
}
