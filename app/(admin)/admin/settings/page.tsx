import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { readSettings, listApiKeys, relayKeyView, recentDeliveries } from '@/lib/backoffice';
import { SCOPES } from '@/lib/auth';
import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { storeTime } from '@/lib/i18n';
import { storeZone } from '@/lib/receipts';
import { RedeliverButton } from '../_components/redeliver';
import { SettingsForm, WebhookSecret } from './settings-form';
import { ApiKeys, RelayKey } from './keys-panel';
import { ReceiptSettings } from './receipt-settings';

export const dynamic = 'force-dynamic';

export default async function SettingsPage() {
  const user = await requirePageUser('manager', '/admin/settings');
  const { db, network } = await appContext();
  const owner = user.role === 'owner';
  const [settings, keys, relay, deliveries] = await Promise.all([
    readSettings(db, user.storeId),
    owner ? listApiKeys(db, user.storeId) : null,
    owner ? relayKeyView(db, user.storeId) : null,
    recentDeliveries(db, user.storeId, 15),
  ]);
  const [t, ta, locale, tz] = await Promise.all([
    getTranslations('adminSettings'),
    getTranslations('admin'),
    getLocale(),
    storeZone(db, user.storeId),
  ]);
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t.rich('network', { name: network.name, b: (c) => <b>{c}</b> })}</p>
      </div>
      <SettingsForm initial={settings} network={network.name} walletEditable={owner} />
      <WebhookSecret initial={settings.webhook_secret_masked} />
      {owner ? <ReceiptSettings initial={settings} zones={Intl.supportedValuesOf('timeZone')} /> : null}
      <section className="bo-card bo-table-wrap" aria-label={t('deliveriesRegion')}>
        <h2>{t('deliveries')}</h2>
        {deliveries.length === 0 ? (
          <p className="muted">{t('noDeliveries')}</p>
        ) : (
          <table className="bo-table">
            <thead>
              <tr>
                <th>{t('when')}</th>
                <th>{t('event')}</th>
                <th>{t('result')}</th>
                <th>{t('invoice')}</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={`${d.event_seq}-${d.attempt}`}>
                  <td>
                    <time dateTime={d.at}>{storeTime(d.at, tz, locale)}</time>
                  </td>
                  <td>
                    {d.event_type} <span className="muted">#{d.attempt}</span>
                  </td>
                  <td>
                    {d.status_code && d.status_code < 300 ? (
                      <span className="bo-badge bo-badge-delivered">{d.status_code}</span>
                    ) : (
                      <span className="bo-badge bo-badge-failed">{d.status_code ?? ta('noAnswer')}</span>
                    )}{' '}
                    <span className="muted">{d.error}</span>
                  </td>
                  <td>
                    <Link className="bo-link" href={`/admin/invoices/${d.payment_id}`}>
                      {d.payment_id.slice(0, 10)}…
                    </Link>
                  </td>
                  <td className="num">
                    <RedeliverButton seq={d.event_seq} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {owner && keys && relay ? (
        <>
          <ApiKeys initial={keys} scopes={[...SCOPES]} tz={tz} />
          <RelayKey initial={relay} />
        </>
      ) : (
        <section className="bo-card">
          <h2>{t('keysOwnerTitle')}</h2>
          <p className="muted">{t('keysOwnerOnly')}</p>
        </section>
      )}
    </>
  );
}
