'use client';
// "Email receipt": one tap on the paid screen (docs/using-counter.md#reports-and-receipts). Posts to
// /api/v1/payments/<id>/receipt and shows the cashier what happened, failure included.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import s from '../pos.module.css';

type State = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; to: string } | { kind: 'failed'; message: string };

export function EmailReceipt({ paymentId }: { paymentId: string }) {
  const t = useTranslations('receipt');
  const [email, setEmail] = useState('');
  const [st, setSt] = useState<State>({ kind: 'idle' });

  async function send(e: React.FormEvent) {
    e.preventDefault();
    setSt({ kind: 'sending' });
    const r = await csrfFetch(`/api/v1/payments/${encodeURIComponent(paymentId)}/receipt`, {
      method: 'POST',
      body: JSON.stringify({ email: email.trim() }),
    }).catch(() => null);
    if (r && r.status === 202) return setSt({ kind: 'sent', to: email.trim() });
    const b = r ? ((await r.json().catch(() => null)) as { message?: string } | null) : null;
    setSt({ kind: 'failed', message: r ? (b?.message ?? t('serverAnswered', { status: r.status })) : t('unreachable') });
  }

  return (
    <form onSubmit={send} aria-label={t('email')} style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
      <label style={{ maxWidth: '100%' }}>
        <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{t('customerEmail')}</span>
        <input
          type="email"
          required
          inputMode="email"
          autoComplete="off"
          placeholder="customer@example.com"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (st.kind !== 'sending') setSt({ kind: 'idle' });
          }}
          style={{
            minHeight: 44,
            padding: '0 10px',
            fontSize: 16,
            borderRadius: 8,
            border: '1px solid #999',
            width: 240,
            maxWidth: '100%',
          }}
        />
      </label>
      <button type="submit" className={s.secondary} disabled={st.kind === 'sending' || email.trim() === ''}>
        {st.kind === 'sending' ? t('sending') : t('email')}
      </button>
      {st.kind === 'sent' ? (
        <p role="status" data-testid="email-result" data-ok="true" style={{ margin: 0 }}>
          {t('sentTo', { to: st.to })}
        </p>
      ) : null}
      {st.kind === 'failed' ? (
        <p role="alert" data-testid="email-result" data-ok="false" className={s.error} style={{ margin: 0 }}>
          {t('notSent', { message: st.message })}
        </p>
      ) : null}
    </form>
  );
}
