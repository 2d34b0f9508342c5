import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { listUserViews } from '@/lib/backoffice/users';
import { UsersEditor } from './users-editor';

export const dynamic = 'force-dynamic';

export default async function UsersPage() {
  const me = await requirePageUser('owner', '/admin/users');
  const { db } = await appContext();
  return (
    <>
      <div className="bo-head"><h1>Users</h1><p className="muted">Owners manage everything; managers run the back office except users, API keys and the relay key; cashiers use the cashier screen only.</p></div>
      <UsersEditor initial={await listUserViews(db)} me={me.id} />
    </>
  );
}
