// The back office's terminals (docs/counter.md): the registered tills, with Unpair displays
// (every customer display of a till returns to its pairing form) and Revoke. Owner or manager.
import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listTerminals } from '@/lib/backoffice';
import { TerminalsEditor } from './terminals-editor';

export const dynamic = 'force-dynamic';

export default async function TerminalsPage() {
  const user = await requirePageUser('manager', '/admin/terminals');
  const { db } = await appContext();
  const t = await getTranslations('adminTerminals');
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </div>
      <TerminalsEditor initial={await listTerminals(db, user.storeId)} />
    </>
  );
}
