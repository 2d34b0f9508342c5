import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { readSettings } from '@/lib/backoffice/settings';
import { listApiKeys, relayKeyView } from '@/lib/backoffice/keys';
import { SCOPES } from '@/lib/auth';
import { recentDeliveries } from '@/lib/backoffice/deliveries';
import Link from 'next/link';
import { RedeliverButton } from '../_components/redeliver';
import { SettingsForm, WebhookSecret } from './settings-form';
import { ApiKeys, RelayKey } from './keys-panel';
import { ReceiptSettings } from './receipt-settings';

export const dynamic = 'force-dynamic';

export default async function SettingsPage() {
  const user = await requirePageUser('manager', '/admin/settings');
  const { db, network } = await appContext();
  const owner = user.role === 'owner';
  const [settings, keys, relay, deliveries] = await Promise.all([readSettings(db), owner ? listApiKeys(db) : null, owner ? relayKeyView(db) : null, recentDeliveries(db, 15)]);
  return (
    <>
      <div className="bo-head"><h1>Settings</h1><p className="muted">Network: <b>{network.name}</b></p></div>
      <SettingsForm initial={settings} network={network.name} walletEditable={owner} />
      <WebhookSecret initial={settings.webhook_secret_masked} />
      {owner ? <ReceiptSettings initial={settings} zones={Intl.supportedValuesOf('timeZone')} /> : null}
      <section className="bo-card bo-table-wrap" aria-label="Webhook deliveries">
        <h2>Recent webhook deliveries</h2>
        {deliveries.length === 0 ? <p className="muted">No delivery attempts yet.</p> : (
          <table className="bo-table">
            <thead><tr><th>When</th><th>Event</th><th>Result</th><th>Invoice</th><th></th></tr></thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={`${d.event_seq}-${d.attempt}`}>
                  <td>{d.at.slice(0, 19).replace('T', ' ')}</td>
                  <td>{d.event_type} <span className="muted">#{d.attempt}</span></td>
                  <td>{d.status_code && d.status_code < 300 ? <span className="bo-badge bo-badge-delivered">{d.status_code}</span> : <span className="bo-badge bo-badge-failed">{d.status_code ?? 'no answer'}</span>} <span className="muted">{d.error}</span></td>
                  <td><Link className="bo-link" href={`/admin/invoices/${d.payment_id}`}>{d.payment_id.slice(0, 10)}…</Link></td>
                  <td className="num"><RedeliverButton seq={d.event_seq} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {owner && keys && relay ? (
        <>
          <ApiKeys initial={keys} scopes={[...SCOPES]} />
          <RelayKey initial={relay} />
        </>
      ) : (
        <section className="bo-card"><h2>API keys and relay key</h2><p className="muted">Only an owner can manage API keys and the relay key.</p></section>
      )}
    </>
  );
}
