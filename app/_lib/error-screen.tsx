'use client';
// What a route segment shows when rendering it failed (its error.tsx): the message of the
// errorPage section, a retry that fetches the segment again, and a way back to the start. The
// error's own text is never shown: a server error reaches the browser as a digest only, which the
// operator finds again in the server log.
import Link from 'next/link';
import { useTranslations } from 'next-intl';

export interface SegmentErrorProps {
  error: Error & { digest?: string };
  retry: () => void;
}

export function ErrorScreen({ error, retry }: SegmentErrorProps) {
  const t = useTranslations('errorPage');
  return (
    <main className="auth-shell" data-testid="error-boundary">
      <div className="auth-card" role="alert">
        <h1>{t('title')}</h1>
        <p>{t('body')}</p>
        {error.digest ? (
          <p className="muted">
            <small>{t('reference', { digest: error.digest })}</small>
          </p>
        ) : null}
        <p>
          <button type="button" className="primary" onClick={() => retry()}>
            {t('retry')}
          </button>{' '}
          <Link href="/">{t('home')}</Link>
        </p>
      </div>
    </main>
  );
}
