'use client';
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import type { SettingsView } from '@/lib/backoffice';
import { useAdminCall } from '../_components/api';
import { ActionButton, HydratedFields, SubmitButton } from '@/app/_lib/action-button';

type Form = Omit<
  SettingsView,
  | 'webhook_secret_set'
  | 'webhook_secret_masked'
  | 'max_size'
  | 'timeout'
  | 'one_conf_required'
  | 'high_conf_required'
  | 'till_lock_sec'
  | 'tip_percents'
> & {
  /** "10, 15, 20": the server checks them (three whole percentages, 1 to 100). */
  tip_percents: string;
  max_size: string;
  timeout: string;
  one_conf_required: string;
  high_conf_required: string;
  till_lock_sec: string;
};

function toForm(s: SettingsView): Form {
  const { webhook_secret_set: _a, webhook_secret_masked: _b, ...rest } = s;
  return {
    ...rest,
    max_size: String(s.max_size),
    timeout: String(s.timeout),
    one_conf_required: String(s.one_conf_required),
    high_conf_required: String(s.high_conf_required),
    till_lock_sec: String(s.till_lock_sec),
    tip_percents: s.tip_percents.join(', '),
  };
}

/** The PATCH /api/admin/settings body for what the form holds. */
function toBody(f: Form) {
  return {
    name: f.name,
    icon: f.icon,
    address: f.address,
    url: f.url,
    store_xpub: f.store_xpub,
    store_address: f.store_address,
    fee_per_kb: f.fee_per_kb,
    max_size: Number(f.max_size),
    timeout: Number(f.timeout),
    zero_conf_limit: f.zero_conf_limit,
    one_conf_limit: f.one_conf_limit,
    one_conf_required: Number(f.one_conf_required),
    high_conf_required: Number(f.high_conf_required),
    fiat_currency: f.fiat_currency.trim().toUpperCase(),
    fiat_rate: f.fiat_rate.trim(),
    tips_enabled: f.tips_enabled,
    // Each part as a number ("abc" is NaN, sent as null): the server names tip_percents when it is not three percentages.
    tip_percents: f.tip_percents
      .split(/[,;\s]+/)
      .filter(Boolean)
      .map((x) => (/^\d{1,3}$/.test(x) ? Number(x) : null)),
    webhook_url: f.webhook_url.trim(),
    till_lock_sec: Number(f.till_lock_sec),
    cash_enabled: f.cash_enabled,
  };
}

type Change = (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
/** The form's state and its field helpers, shared by the sections below. */
interface Fields {
  f: Form;
  set: (k: keyof Form) => Change;
  text: (k: keyof Form, label: string, extra?: React.InputHTMLAttributes<HTMLInputElement>) => React.ReactNode;
}

function PaymentsSection({ fields: { text }, walletEditable }: { fields: Fields; walletEditable: boolean }) {
  const t = useTranslations('adminSettings');
  return (
    <section className="bo-card">
      <h2>{t('payments')}</h2>
      <div className="bo-form-grid">
        {text('fee_per_kb', t('feePerKb'), { inputMode: 'decimal' })}
        {text('max_size', t('maxSize'), { inputMode: 'numeric' })}
        {text('timeout', t('timeout'), { inputMode: 'numeric' })}
      </div>
      <h3>{t('risk')}</h3>
      <p className="muted">
        {t('riskHelp')}
        {walletEditable ? '' : ` ${t('riskOwnerOnly')}`}
      </p>
      <div className="bo-form-grid">
        {text('zero_conf_limit', t('zeroConf'), { inputMode: 'decimal', readOnly: !walletEditable })}
        {text('one_conf_limit', t('lowRisk'), { inputMode: 'decimal', readOnly: !walletEditable })}
        {text('one_conf_required', t('confUpTo'), { inputMode: 'numeric', readOnly: !walletEditable })}
        {text('high_conf_required', t('confAbove'), { inputMode: 'numeric', readOnly: !walletEditable })}
      </div>
    </section>
  );
}

function TillSection({ fields: { f, set, text } }: { fields: Fields }) {
  const t = useTranslations('adminSettings');
  return (
    <section className="bo-card">
      <h2>{t('cashier')}</h2>
      <div className="bo-form-grid">
        {text('fiat_currency', t('fiatCurrency'), { maxLength: 3, placeholder: 'USD' })}
        {text('fiat_rate', t('fiatRate'), { inputMode: 'decimal', placeholder: '0.15' })}
        <label className="bo-check">
          <input type="checkbox" name="tips_enabled" checked={f.tips_enabled} onChange={set('tips_enabled')} /> <span>{t('tips')}</span>
        </label>
        {text('tip_percents', t('tipPercents'), { inputMode: 'numeric', placeholder: '10, 15, 20' })}
        {text('till_lock_sec', t('tillLockSec'), { inputMode: 'numeric' })}
        <label className="bo-check">
          <input type="checkbox" name="cash_enabled" checked={f.cash_enabled} onChange={set('cash_enabled')} />{' '}
          <span>{t('cashEnabled')}</span>
        </label>
      </div>
      <p className="muted">{t('cashHelp')}</p>
    </section>
  );
}

export function SettingsForm({ initial, network, walletEditable }: { initial: SettingsView; network: string; walletEditable: boolean }) {
  const t = useTranslations('adminSettings');
  const ta = useTranslations('admin');
  const adminCall = useAdminCall();
  const [f, setF] = useState<Form>(toForm(initial));
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ error: boolean; text: string } | null>(null);
  const set = (k: keyof Form) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setF({ ...f, [k]: e.target.type === 'checkbox' ? (e.target as HTMLInputElement).checked : e.target.value });
  const text = (k: keyof Form, label: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label className="field">
      <span>{label}</span>
      <input name={k} value={String(f[k])} onChange={set(k)} {...extra} />
    </label>
  );

  const fields: Fields = { f, set, text };

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMsg(null);
    const body = toBody(f);
    const r = await adminCall<SettingsView>('PATCH', '/api/admin/settings', body);
    setBusy(false);
    if (!r.ok) return setMsg({ error: true, text: r.message });
    setF(toForm(r.data));
    setMsg({ error: false, text: t('settingsSaved') });
  }

  return (
    <form onSubmit={save} className="bo-settings">
      <HydratedFields>
        <section className="bo-card">
          <h2>{t('storeProfile')}</h2>
          <div className="bo-form-grid">
            {text('name', t('storeName'), { required: true, maxLength: 100 })}
            {text('icon', t('iconEmoji'), { maxLength: 16 })}
            {text('address', t('postalAddress'), { maxLength: 300 })}
            {text('url', t('website'), { type: 'url', placeholder: 'https://' })}
          </div>
        </section>
        <section className="bo-card">
          <h2>{t('wallet')}</h2>
          <p className="muted">
            {t('walletHelp', { prefix: network === 'mainnet' ? 'dgub…' : 'tpub…', network })}
            {walletEditable ? '' : ` ${t('walletOwnerOnly')}`}
          </p>
          <div className="bo-form-grid">
            <label className="field bo-span2">
              <span>{t('accountKey')}</span>
              <input
                name="store_xpub"
                value={f.store_xpub}
                onChange={set('store_xpub')}
                readOnly={!walletEditable}
                className="bo-mono"
                spellCheck={false}
              />
            </label>
            <label className="field bo-span2">
              <span>{t('fixedAddress')}</span>
              <input
                name="store_address"
                value={f.store_address}
                onChange={set('store_address')}
                readOnly={!walletEditable}
                className="bo-mono"
                spellCheck={false}
              />
            </label>
          </div>
        </section>
        <PaymentsSection fields={fields} walletEditable={walletEditable} />
        <TillSection fields={fields} />
        <section className="bo-card">
          <h2>{t('webhook')}</h2>
          <div className="bo-form-grid">
            <label className="field bo-span2">
              <span>{t('webhookUrl')}</span>
              <input
                name="webhook_url"
                value={f.webhook_url}
                onChange={set('webhook_url')}
                type="url"
                placeholder="https://shop.example/counter-events"
              />
            </label>
          </div>
        </section>
      </HydratedFields>
      <div className="bo-sticky-save">
        {msg ? (
          <span role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>
            {msg.text}
          </span>
        ) : (
          <span />
        )}
        <SubmitButton className="btn btn-primary" disabled={busy}>
          {busy ? ta('saving') : t('saveSettings')}
        </SubmitButton>
      </div>
    </form>
  );
}

export function WebhookSecret({ initial }: { initial: string }) {
  const t = useTranslations('adminSettings');
  const adminCall = useAdminCall();
  const [masked, setMasked] = useState(initial);
  const [shown, setShown] = useState('');
  const [err, setErr] = useState('');
  return (
    <section className="bo-card" aria-label={t('secretRegion')}>
      <h2>{t('secretTitle')}</h2>
      <p className="muted">{t.rich('secretHelp', { code: (c) => <code>{c}</code> })}</p>
      <div className="bo-row">
        <code className="bo-secret" data-testid="webhook-secret">
          {shown || masked || t('notSet')}
        </code>
        <ActionButton
          className="btn"
          onClick={async () => {
            if (masked && !confirm(t('replaceSecret'))) return;
            const r = await adminCall<{ secret: string }>('POST', '/api/admin/settings/webhook-secret');
            if (!r.ok) return setErr(r.message);
            setShown(r.data.secret);
            setMasked(r.data.secret.slice(0, 6) + '••••••••' + r.data.secret.slice(-2));
          }}
        >
          {masked ? t('regenerate') : t('generate')}
        </ActionButton>
      </div>
      {shown ? (
        <p className="bo-ok" role="status">
          {t('copyNow')}
        </p>
      ) : null}
      {err ? (
        <p className="form-error" role="alert">
          {err}
        </p>
      ) : null}
    </section>
  );
}
