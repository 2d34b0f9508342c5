'use client';
// New store: its name and its owner's email; the invite link is then shown to be copied (it is
// also emailed to the owner when the installation has a mail server).
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useAdminCall } from '../admin/_components/api';
import { ActionButton, SubmitButton } from '@/app/_lib/action-button';

interface Created {
  id: number;
  name: string;
  invite_url: string;
}

export function NewStore({ onCreated }: { onCreated: () => void }) {
  const t = useTranslations('operator');
  const call = useAdminCall();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [created, setCreated] = useState<Created | null>(null);
  const [copied, setCopied] = useState(false);

  async function create(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    setError('');
    const r = await call<Created>('POST', '/api/operator/stores', { name: data.get('name'), owner_email: data.get('owner_email') });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    setCreated(r.data);
    setCopied(false);
    form.reset();
    onCreated();
  }

  async function copy() {
    if (!created) return;
    await navigator.clipboard.writeText(created.invite_url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }

  return (
    <section className="bo-card">
      <h2>{t('newStore')}</h2>
      <form className="bo-form-grid" onSubmit={create}>
        <label className="field">
          <span>{t('storeName')}</span>
          <input name="name" required maxLength={100} autoComplete="off" />
        </label>
        <label className="field">
          <span>{t('ownerEmail')}</span>
          <input name="owner_email" type="email" required maxLength={320} autoComplete="off" />
        </label>
        <div className="bo-form-actions bo-span2">
          <SubmitButton className="btn btn-primary" disabled={busy}>
            {t('create')}
          </SubmitButton>
        </div>
      </form>
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      {created ? (
        <div role="status" className="bo-ok">
          <label className="field">
            <span>{t('inviteFor', { store: created.name })}</span>
            <input readOnly value={created.invite_url} data-testid="invite-url" onFocus={(e) => e.currentTarget.select()} />
          </label>
          <p className="muted">{t('inviteHint')}</p>
          <ActionButton className="btn bo-btn-sm" onClick={() => void copy()}>
            {copied ? t('copied') : t('copy')}
          </ActionButton>
        </div>
      ) : null}
    </section>
  );
}
