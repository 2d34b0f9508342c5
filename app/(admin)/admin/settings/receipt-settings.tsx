'use client';
// Owner: the store's time zone and the SMTP server for email receipts (docs/using-counter.md#reports-and-receipts). The SMTP
// password is never sent to the browser: the URL comes masked, and saving it back unchanged keeps it.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import type { SettingsView } from '@/lib/backoffice';
import { useAdminCall } from '../_components/api';
import { HydratedFields, SubmitButton } from '@/app/_lib/action-button';

export function ReceiptSettings({ initial, zones }: { initial: SettingsView; zones: string[] }) {
  const t = useTranslations('adminSettings');
  const ta = useTranslations('admin');
  const adminCall = useAdminCall();
  const [f, setF] = useState({ timezone: initial.timezone, smtp_url: initial.smtp_url, smtp_from: initial.smtp_from });
  const [inForce, setInForce] = useState(initial.timezone_in_force);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ error: boolean; text: string } | null>(null);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMsg(null);
    const r = await adminCall<SettingsView>('PATCH', '/api/admin/settings', {
      timezone: f.timezone.trim(),
      smtp_url: f.smtp_url.trim(),
      smtp_from: f.smtp_from.trim(),
    });
    setBusy(false);
    if (!r.ok) return setMsg({ error: true, text: r.message });
    setF({ timezone: r.data.timezone, smtp_url: r.data.smtp_url, smtp_from: r.data.smtp_from });
    setInForce(r.data.timezone_in_force);
    setMsg({ error: false, text: ta('saved') });
  }

  return (
    <form onSubmit={save} className="bo-card" aria-label={t('tzTitle')}>
      <HydratedFields>
        <h2>{t('tzTitle')}</h2>
        <div className="bo-form-grid">
          <label className="field">
            <span>{t('tz')}</span>
            <input
              name="timezone"
              list="tz-list"
              value={f.timezone}
              onChange={(e) => setF({ ...f, timezone: e.target.value })}
              placeholder={inForce}
              autoComplete="off"
            />
          </label>
          <datalist id="tz-list">
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <p className="muted">
            {t('inForce')} <b data-testid="tz-in-force">{inForce}</b>
          </p>
          <label className="field bo-span2">
            <span>{t('smtp')}</span>
            <input
              name="smtp_url"
              value={f.smtp_url}
              onChange={(e) => setF({ ...f, smtp_url: e.target.value })}
              placeholder="smtps://user:password@mail.example:465"
              autoComplete="off"
              spellCheck={false}
            />
          </label>
          <label className="field">
            <span>{t('sender')}</span>
            <input
              name="smtp_from"
              value={f.smtp_from}
              onChange={(e) => setF({ ...f, smtp_from: e.target.value })}
              placeholder="Shop <receipts@shop.example>"
              autoComplete="off"
            />
          </label>
        </div>
        <div className="bo-sticky-save">
          {msg ? (
            <span role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>
              {msg.text}
            </span>
          ) : (
            <span />
          )}
          <SubmitButton className="btn btn-primary" disabled={busy}>
            {busy ? ta('saving') : ta('save')}
          </SubmitButton>
        </div>
      </HydratedFields>
    </form>
  );
}
