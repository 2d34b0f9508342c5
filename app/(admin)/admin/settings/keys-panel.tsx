'use client';
import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { storeTime } from '@/lib/i18n';
import type { ApiKeyView, RelayKeyView } from '@/lib/backoffice';
import { useAdminCall } from '../_components/api';
import { ActionButton, HydratedFields, SubmitButton } from '@/app/_lib/action-button';

export function ApiKeys({ initial, scopes, tz }: { initial: ApiKeyView[]; scopes: string[]; tz: string }) {
  const t = useTranslations('adminSettings');
  const locale = useLocale();
  const adminCall = useAdminCall();
  const day = (at: string) => storeTime(at, tz, locale, 'date');
  const [keys, setKeys] = useState(initial);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>(['payments:read', 'payments:write']);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [err, setErr] = useState('');

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setErr('');
    const r = await adminCall<{ id: string; name: string; prefix: string; scopes: string[]; secret: string }>(
      'POST',
      '/api/admin/api-keys',
      { name, scopes: chosen },
    );
    if (!r.ok) return setErr(r.message);
    setSecret({ name: r.data.name, secret: r.data.secret });
    setKeys((ks) => [
      {
        id: r.data.id,
        name: r.data.name,
        prefix: r.data.prefix,
        scopes: r.data.scopes,
        created_at: new Date().toISOString(),
        last_used_at: null,
        revoked_at: null,
        bootstrap: false,
      },
      ...ks,
    ]);
    setName('');
  }
  async function revoke(k: ApiKeyView) {
    if (!confirm(t('revokeConfirm', { name: k.name }))) return;
    const r = await adminCall('DELETE', `/api/admin/api-keys/${k.id}`);
    if (!r.ok) return setErr(r.message);
    setKeys((ks) => ks.map((x) => (x.id === k.id ? { ...x, revoked_at: new Date().toISOString() } : x)));
  }

  return (
    <section className="bo-card" aria-label={t('apiKeys')}>
      <h2>{t('apiKeys')}</h2>
      <form className="bo-form-grid" onSubmit={create}>
        <HydratedFields>
          <label className="field">
            <span>{t('keyName')}</span>
            <input
              name="key_name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={100}
              placeholder={t('keyNamePlaceholder')}
            />
          </label>
          <fieldset className="bo-scopes bo-span2">
            <legend>{t('scopes')}</legend>
            {scopes.map((s) => (
              <label key={s} className="bo-check">
                <input
                  type="checkbox"
                  checked={chosen.includes(s)}
                  onChange={(e) => setChosen(e.target.checked ? [...chosen, s] : chosen.filter((x) => x !== s))}
                />{' '}
                <span>{s}</span>
              </label>
            ))}
          </fieldset>
          <div className="bo-form-actions bo-span2">
            <SubmitButton className="btn btn-primary">{t('createKey')}</SubmitButton>
          </div>
        </HydratedFields>
      </form>
      {secret ? (
        <div className="bo-once" role="status">
          <b>{t('newKey', { name: secret.name })}</b> <code data-testid="new-api-key">{secret.secret}</code>
          <p>{t('copyOnce')}</p>
          <ActionButton className="btn bo-btn-sm" onClick={() => navigator.clipboard?.writeText(secret.secret)}>
            {t('copy')}
          </ActionButton>
          <ActionButton className="btn bo-btn-sm" onClick={() => setSecret(null)}>
            {t('done')}
          </ActionButton>
        </div>
      ) : null}
      {err ? (
        <p className="form-error" role="alert">
          {err}
        </p>
      ) : null}
      <ul className="bo-keys">
        {keys.map((k) => (
          <li key={k.id} className={k.revoked_at ? 'bo-key revoked' : 'bo-key'}>
            <div className="bo-grow">
              <b>{k.name}</b> <code>{k.prefix}…</code>
              {k.revoked_at ? <span className="bo-badge bo-badge-declined">{t('revoked')}</span> : null}
              <div className="muted">
                {k.scopes.join(', ')} · {t('keyCreated', { date: day(k.created_at) })}
                {k.last_used_at ? ` · ${t('keyUsed', { date: day(k.last_used_at) })}` : ''}
              </div>
            </div>
            {!k.revoked_at ? (
              <ActionButton className="btn bo-btn-sm" onClick={() => revoke(k)} aria-label={t('revokeName', { name: k.name })}>
                {t('revoke')}
              </ActionButton>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function RelayKey({ initial }: { initial: RelayKeyView }) {
  const t = useTranslations('adminSettings');
  const adminCall = useAdminCall();
  const [k, setK] = useState(initial);
  const [err, setErr] = useState('');
  return (
    <section className="bo-card" aria-label={t('relayRegion')}>
      <h2>{t('relayTitle')}</h2>
      <p className="muted">{t('relayHelp')}</p>
      <div className="bo-row">
        <code className="bo-secret bo-break" data-testid="relay-pubkey">
          {k.pubkey}
        </code>
        <ActionButton
          className="btn"
          onClick={async () => {
            if (!confirm(t('rotateConfirm'))) return;
            const r = await adminCall<RelayKeyView>('POST', '/api/admin/relay-key');
            if (!r.ok) return setErr(r.message);
            setK(r.data);
          }}
        >
          {t('rotate')}
        </ActionButton>
      </div>
      {k.retired.length ? (
        <p className="muted">{t('retired', { keys: k.retired.map((r) => r.pubkey.slice(0, 16) + '…').join(', ') })}</p>
      ) : null}
      {err ? (
        <p className="form-error" role="alert">
          {err}
        </p>
      ) : null}
    </section>
  );
}
