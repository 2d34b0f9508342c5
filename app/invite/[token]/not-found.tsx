// A used, expired or unknown invite: a 404 page that says so, in the visitor's language.
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';

export default async function InviteNotFound() {
  const t = await getTranslations('invite');
  return (
    <main className="auth-shell">
      <div className="auth-card" data-testid="invite-not-found">
        <Link href="/" className="brand">
          <span className="brand-mark">Ð</span>Counter
        </Link>
        <h1>{t('goneTitle')}</h1>
        <p className="muted">{t('goneDetail')}</p>
      </div>
    </main>
  );
}
