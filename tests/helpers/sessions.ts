// Signed-in sessions for tests: POST /api/auth/login as the browser does it, and the two things
// every later request needs, the session cookie and its CSRF token.
import { must } from './must';

export interface Session {
  /** `counter_session=…`, ready for a Cookie header. */
  cookie: string;
  /** The session's CSRF token, for X-CSRF-Token on mutations. */
  csrf: string;
}

/** Signs in at `baseUrl` (expecting 200) and returns the session. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<Session> {
  const r = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  must(r.status === 200, `sign-in of ${email} answered ${r.status}`);
  return { cookie: (r.headers.get('set-cookie') ?? '').split(';')[0], csrf: (await r.json()).csrf_token as string };
}

/** A signed-in session of each role: the owner's, and one per added user. */
export type RoleSessions<R extends string> = Record<'owner' | R, Session>;

/**
 * Signs the owner in (`owner@<domain>`, created at start-up by ADMIN_EMAIL/ADMIN_PASSWORD), has it
 * add one user per role (`<role>@<domain>`, the same password; expecting 201) and signs each in.
 */
export async function signInRoles<R extends string>(
  baseUrl: string,
  domain: string,
  password: string,
  roles: readonly R[],
): Promise<RoleSessions<R>> {
  const owner = await signIn(baseUrl, `owner@${domain}`, password);
  const who = { owner } as RoleSessions<R>;
  for (const role of roles) {
    const r = await fetch(`${baseUrl}/api/admin/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf },
      body: JSON.stringify({ email: `${role}@${domain}`, password, role }),
    });
    must(r.status === 201, `adding ${role}@${domain} answered ${r.status}: ${await r.text()}`);
    who[role] = await signIn(baseUrl, `${role}@${domain}`, password);
  }
  return who;
}
