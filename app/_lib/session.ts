// Server-side session helpers for pages and server components (Next.js only; the logic lives
// in lib/auth). Pages call requirePageUser(); it redirects to /login when nobody is signed in
// and to /pos when the role is too low.
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { appContext } from '@/lib/app-context';
import {
  sessionUser,
  roleAtLeast,
  terminalForToken,
  SESSION_COOKIE,
  TERMINAL_COOKIE,
  type ActiveTerminal,
  type Role,
  type SessionUser,
} from '@/lib/auth';

export async function currentUser(): Promise<SessionUser | null> {
  const jar = await cookies();
  const ctx = await appContext();
  return sessionUser(ctx.db, jar.get(SESSION_COOKIE)?.value);
}

/** This browser's registered, unrevoked terminal (its cookie), or null. */
export async function currentTerminal(): Promise<ActiveTerminal | null> {
  const jar = await cookies();
  const ctx = await appContext();
  return terminalForToken(ctx.db, jar.get(TERMINAL_COOKIE)?.value);
}

export async function requirePageUser(min: Role = 'cashier', next = '/'): Promise<SessionUser> {
  const user = await currentUser();
  // Nobody signed in on a registered till: its lock screen, not the password form.
  if (!user && isTillPath(next) && (await currentTerminal())) redirect('/pos/lock');
  // A PIN session opens the till only: any other page asks for the password (docs/counter.md).
  if (!user || (user.tillOnly && !isTillPath(next))) redirect(`/login?next=${encodeURIComponent(next)}`);
  // Too low a role: managers go back to the back office, cashiers to the cashier screen.
  if (!roleAtLeast(user.role, min)) redirect(roleAtLeast(user.role, 'manager') ? '/admin?denied=1' : '/pos?denied=1');
  return user;
}

function isTillPath(path: string): boolean {
  return path === '/pos' || path.startsWith('/pos/');
}

/** The signed-in user for back-office pages: a PIN session (till only) counts as nobody. */
export async function backOfficeUser(): Promise<SessionUser | null> {
  const user = await currentUser();
  return user && !user.tillOnly ? user : null;
}
