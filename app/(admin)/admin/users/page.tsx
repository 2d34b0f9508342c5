import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listUserViews } from '@/lib/backoffice/users';
import { UsersEditor } from './users-editor';

export const dynamic = 'force-dynamic';

export default async function UsersPage() {
  const me = await requirePageUser('owner', '/admin/users');
  const { db } = await appContext();
  const t = await getTranslations('adminUsers');
  return (
    <>
      <div className="bo-head"><h1>{t('title')}</h1><p className="muted">{t('intro')}</p></div>
      <UsersEditor initial={await listUserViews(db)} me={me.id} />
    </>
  );
}
