// The audit log in the back office (owners only): settings, wallet, user, API key and relay key changes.
import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listAudit } from '@/lib/backoffice';

export const dynamic = 'force-dynamic';
export async function generateMetadata() {
  return { title: `${(await getTranslations('adminAudit'))('title')} — Counter` };
}

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
  const me = await requirePageUser('owner', '/admin/audit');
  const { db } = await appContext();
  const entries = await listAudit(db, me.storeId, 500);
  const t = await getTranslations('adminAudit');
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </div>
      <section className="bo-card bo-table-wrap" aria-label={t('title')}>
        {entries.length === 0 ? (
          <p className="muted">{t('none')}</p>
        ) : (
          <table className="bo-table">
            <thead>
              <tr>
                <th>{t('when')}</th>
                <th>{t('who')}</th>
                <th>{t('what')}</th>
                <th>{t('changes')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e, i) => (
                <tr key={`${e.at}-${i}`}>
                  <td>{e.at.slice(0, 19).replace('T', ' ')}</td>
                  <td>{e.user}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
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
