// The audit log in the back office (owners only): settings, wallet, user, API key and relay key changes.
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listAudit } from '@/lib/backoffice/audit';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Audit log — Counter' };

function describe(changes: Record<string, unknown>): string {
  return Object.entries(changes)
    .map(([k, v]) => {
      if (v && typeof v === 'object' && !Array.isArray(v) && 'from' in v && 'to' in v) {
        const c = v as { from: unknown; to: unknown };
        return `${k}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`;
      }
      return `${k}: ${JSON.stringify(v)}`;
    })
    .join('; ');
}

export default async function AuditPage() {
  await requirePageUser('owner', '/admin/audit');
  const { db } = await appContext();
  const entries = await listAudit(db, 500);
  return (
    <>
      <div className="bo-head"><h1>Audit log</h1><p className="muted">Every change to settings, the receiving wallet, users, API keys and the relay key, newest first. Secrets are never recorded.</p></div>
      <section className="bo-card bo-table-wrap" aria-label="Audit log">
        {entries.length === 0 ? <p className="muted">No changes yet.</p> : (
          <table className="bo-table">
            <thead><tr><th>When (UTC)</th><th>Who</th><th>What</th><th>Changes</th></tr></thead>
            <tbody>
              {entries.map((e, i) => (
                <tr key={`${e.at}-${i}`}>
                  <td>{e.at.slice(0, 19).replace('T', ' ')}</td>
                  <td>{e.user}</td>
                  <td><code>{e.action}</code></td>
                  <td className="bo-mono">{describe(e.changes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
