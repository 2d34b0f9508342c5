'use client';
import { useState } from 'react';
import type { ApiKeyView, RelayKeyView } from '@/lib/backoffice/keys';
import { adminCall } from '../_components/api';

export function ApiKeys({ initial, scopes }: { initial: ApiKeyView[]; scopes: string[] }) {
  const [keys, setKeys] = useState(initial);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>(['payments:read', 'payments:write']);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [err, setErr] = useState('');

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setErr('');
    const r = await adminCall<{ id: string; name: string; prefix: string; scopes: string[]; secret: string }>('POST', '/api/admin/api-keys', { name, scopes: chosen });
    if (!r.ok) return setErr(r.message);
    setSecret({ name: r.data.name, secret: r.data.secret });
    setKeys((ks) => [{ id: r.data.id, name: r.data.name, prefix: r.data.prefix, scopes: r.data.scopes, created_at: new Date().toISOString(), last_used_at: null, revoked_at: null, bootstrap: false }, ...ks]);
    setName('');
  }
  async function revoke(k: ApiKeyView) {
    if (!confirm(`Revoke “${k.name}”? Programs using it stop working.`)) return;
    const r = await adminCall('DELETE', `/api/admin/api-keys/${k.id}`);
    if (!r.ok) return setErr(r.message);
    setKeys((ks) => ks.map((x) => (x.id === k.id ? { ...x, revoked_at: new Date().toISOString() } : x)));
  }

  return (
    <section className="bo-card" aria-label="API keys">
      <h2>API keys</h2>
      <form className="bo-form-grid" onSubmit={create}>
        <label className="field"><span>Key name</span><input name="key_name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="Web shop" /></label>
        <fieldset className="bo-scopes bo-span2"><legend>Scopes</legend>
          {scopes.map((s) => (
            <label key={s} className="bo-check"><input type="checkbox" checked={chosen.includes(s)} onChange={(e) => setChosen(e.target.checked ? [...chosen, s] : chosen.filter((x) => x !== s))} /> <span>{s}</span></label>
          ))}
        </fieldset>
        <div className="bo-form-actions bo-span2"><button className="btn btn-primary" type="submit">Create key</button></div>
      </form>
      {secret ? (
        <div className="bo-once" role="status">
          <b>New key “{secret.name}”:</b> <code data-testid="new-api-key">{secret.secret}</code>
          <p>Copy it now. It is shown only once.</p>
          <button type="button" className="btn bo-btn-sm" onClick={() => navigator.clipboard?.writeText(secret.secret)}>Copy</button>
          <button type="button" className="btn bo-btn-sm" onClick={() => setSecret(null)}>Done</button>
        </div>
      ) : null}
      {err ? <p className="form-error" role="alert">{err}</p> : null}
      <ul className="bo-keys">
        {keys.map((k) => (
          <li key={k.id} className={k.revoked_at ? 'bo-key revoked' : 'bo-key'}>
            <div className="bo-grow"><b>{k.name}</b> <code>{k.prefix}…</code>{k.revoked_at ? <span className="bo-badge bo-badge-declined">revoked</span> : null}
              <div className="muted">{k.scopes.join(', ')} · created {k.created_at.slice(0, 10)}{k.last_used_at ? ` · used ${k.last_used_at.slice(0, 10)}` : ''}</div>
            </div>
            {!k.revoked_at ? <button type="button" className="btn bo-btn-sm" onClick={() => revoke(k)} aria-label={`Revoke ${k.name}`}>Revoke</button> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function RelayKey({ initial }: { initial: RelayKeyView }) {
  const [k, setK] = useState(initial);
  const [err, setErr] = useState('');
  return (
    <section className="bo-card" aria-label="Relay key">
      <h2>Relay signing key</h2>
      <p className="muted">Payment envelopes are signed with this key (BIP-340). Rotating it signs new payments with a fresh key; existing payments stay valid.</p>
      <div className="bo-row">
        <code className="bo-secret bo-break" data-testid="relay-pubkey">{k.pubkey}</code>
        <button type="button" className="btn" onClick={async () => {
          if (!confirm('Rotate the relay key?')) return;
          const r = await adminCall<RelayKeyView>('POST', '/api/admin/relay-key');
          if (!r.ok) return setErr(r.message);
          setK(r.data);
        }}>Rotate key</button>
      </div>
      {k.retired.length ? <p className="muted">Retired: {k.retired.map((r) => r.pubkey.slice(0, 16) + '…').join(', ')}</p> : null}
      {err ? <p className="form-error" role="alert">{err}</p> : null}
    </section>
  );
}
