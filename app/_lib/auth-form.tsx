'use client';
// The sign-in and first-owner setup forms. They post JSON to /api/auth/* and follow `next`.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { safeNextPath } from '@/lib/auth/client';

export type AuthField = { name: string; label: string; type: string; autoComplete?: string; required?: boolean; hint?: string };

export function AuthForm({
  endpoint,
  fields,
  submitLabel,
  next,
}: {
  endpoint: string;
  fields: AuthField[];
  submitLabel: string;
  next: string;
}) {
  const t = useTranslations('common');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError('');
    const data = Object.fromEntries(new FormData(e.currentTarget).entries());
    try {
      const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data) });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) {
        setError(body.message ?? t('requestFailed', { status: res.status }));
        return;
      }
      const role = body.user?.role;
      // Only same-origin paths are followed (lib/auth/safe-next.ts); none (or the home page)
      // means the role's own screen.
      const home = role === 'cashier' ? '/pos' : '/admin';
      const target = safeNextPath(next, home);
      window.location.assign(target === '/' ? home : target);
    } catch {
      setError(t('networkRetry'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="auth-form" method="post" onSubmit={onSubmit}>
      {fields.map((f) => (
        <label key={f.name} className="field">
          <span>{f.label}</span>
          <input name={f.name} type={f.type} autoComplete={f.autoComplete} required={f.required ?? true} />
          {f.hint ? <small className="muted">{f.hint}</small> : null}
        </label>
      ))}
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      <button className="btn btn-primary" type="submit" disabled={busy}>
        {busy ? t('pleaseWait') : submitLabel}
      </button>
    </form>
  );
}
