// The lock screen of a registered till (docs/counter.md). Only a browser holding a registered,
// unrevoked terminal cookie sees it; any other browser is sent to the password sign-in.
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { appContext } from '@/lib/app-context';
import { terminalForToken, TERMINAL_COOKIE } from '@/lib/auth';
import { lockUsers } from '@/lib/api';
import { LockScreen } from './lock-screen';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Locked — Counter' };

export default async function LockPage() {
  const { db } = await appContext();
  const terminal = await terminalForToken(db, (await cookies()).get(TERMINAL_COOKIE)?.value);
  if (!terminal) redirect('/login?next=%2Fpos');
  return <LockScreen terminal={terminal.name} users={await lockUsers(db, terminal.storeId)} />;
}
