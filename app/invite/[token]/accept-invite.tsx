'use client';
// Accept: the signed-in user takes the invite, then opens the new store's settings (its wallet).
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { ActionButton } from '@/app/_lib/action-button';

export function AcceptInvite({ endpoint, label }: { endpoint: string; label: string }) {
  const t = useTranslations('common');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function accept() {
    setBusy(true);
    setError('');
    try {
      const res = await csrfFetch(endpoint, { method: 'POST', body: '{}' });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) {
        setError(body.message ?? t('requestFailed', { status: res.status }));
        return;
      }
      window.location.assign('/admin/settings');
    } catch {
      setError(t('networkRetry'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auth-form">
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      {/* A tap on the server's HTML, before hydration, would do nothing: ActionButton waits for it. */}
      <ActionButton className="btn btn-primary" disabled={busy} onClick={() => void accept()}>
        {busy ? t('pleaseWait') : label}
      </ActionButton>
    </div>
  );
}
