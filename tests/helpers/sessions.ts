// Signed-in sessions for tests: POST /api/auth/login as the browser does it, and the two things
// every later request needs, the session cookie and its CSRF token.
import { expect } from 'vitest';

export interface Session {
  /** `counter_session=…`, ready for a Cookie header. */
  cookie: string;
  /** The session's CSRF token, for X-CSRF-Token on mutations. */
  csrf: string;
}

/** Signs in at `baseUrl` (expecting 200) and returns the session. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<Session> {
  const r = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(r.status).toBe(200);
  return { cookie: (r.headers.get('set-cookie') ?? '').split(';')[0], csrf: (await r.json()).csrf_token as string };
}
