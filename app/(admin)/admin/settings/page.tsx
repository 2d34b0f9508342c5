import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { readSettings } from '@/lib/backoffice/settings';
import { listApiKeys, relayKeyView } from '@/lib/backoffice/keys';
import { SCOPES } from '@/lib/auth';
import { SettingsForm, WebhookSecret } from './settings-form';
import { ApiKeys, RelayKey } from './keys-panel';

export const dynamic = 'force-dynamic';

export default async function SettingsPage() {
  const user = await requirePageUser('manager', '/admin/settings');
  const { db, network } = await appContext();
  const owner = user.role === 'owner';
  const [settings, keys, relay] = await Promise.all([readSettings(db), owner ? listApiKeys(db) : null, owner ? relayKeyView(db) : null]);
  return (
    <>
      <div className="bo-head"><h1>Settings</h1><p className="muted">Network: <b>{network.name}</b></p></div>
      <SettingsForm initial={settings} network={network.name} />
      <WebhookSecret initial={settings.webhook_secret_masked} />
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
