import { getTranslations } from 'next-intl/server';
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listUserViews } from '@/lib/backoffice';
import { UsersEditor } from './users-editor';
import { CashierPins } from './cashier-pins';

export const dynamic = 'force-dynamic';

// The owner manages every user; a manager only sets cashiers' PINs (docs/counter.md#staff-pins),
// so a manager's page is built from the cashiers alone: owners and managers never reach it.
export default async function UsersPage() {
  const me = await requirePageUser('manager', '/admin/users');
  const { db } = await appContext();
  const t = await getTranslations('adminUsers');
  const users = await listUserViews(db, me.storeId);
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{me.role === 'owner' ? t('intro') : t('managerIntro')}</p>
      </div>
      {me.role === 'owner' ? (
        <UsersEditor initial={users} me={me.id} />
      ) : (
        <CashierPins cashiers={users.filter((u) => u.role === 'cashier')} />
      )}
    </>
  );
}
