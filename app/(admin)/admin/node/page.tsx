import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { readNodeStatus, NODE_TEXT_ENDPOINTS } from '@/lib/backoffice/node-status';
import { WalletHistory } from './wallet-history';

export const dynamic = 'force-dynamic';

export default async function NodePage() {
  const user = await requirePageUser('manager', '/admin/node');
  const { db, cfg } = await appContext();
  const s = await readNodeStatus(db);
  const pct = Math.round(s.progress * 1000) / 10;
  return (
    <>
      <div className="bo-head"><h1>Node status</h1><p className="muted">{cfg.network} · {cfg.chainBackend} backend</p></div>
      <section className="bo-stats">
        <div className="bo-stat"><span>Chain tip</span><b data-testid="tip-height">{s.tip_height}</b><small className="bo-mono bo-ellipsis">{s.tip_hash || '—'}</small></div>
        <div className="bo-stat"><span>Peers</span><b>{s.peers}</b></div>
        <div className="bo-stat"><span>State</span><b>{s.synced ? 'Synced' : 'Syncing'}</b><small>{s.updated_at ? `updated ${s.updated_at.slice(11, 19)} UTC` : 'no report from the worker yet'}</small></div>
      </section>
      <section className="bo-card">
        <h2>Sync progress</h2>
        <div className="bo-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Header sync">
          <div className="bo-progress-bar" style={{ width: `${pct}%` }} />
        </div>
        <p className="muted">{pct}% · {s.tip_height} of {s.target_height || s.tip_height} blocks</p>
      </section>
      <WalletHistory initial={s.wallet} owner={user.role === 'owner'} />
      <section className="bo-card">
        <h2>Text endpoints</h2>
        <p className="muted">Plain-text node diagnostics (the wallet ones need an API key with node:read or node:wallet).</p>
        <ul className="bo-linklist">
          {NODE_TEXT_ENDPOINTS.map((p) => <li key={p}><a className="btn bo-btn-sm" href={p}>{p}</a></li>)}
          <li><a className="btn bo-btn-sm" href="/api/health">/api/health</a></li>
        </ul>
      </section>
    </>
  );
}
