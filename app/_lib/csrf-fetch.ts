'use client';
// fetch() for the web app's mutations: adds the session's CSRF token (from /api/auth/me).
let token: Promise<string> | null = null;
let sealed = false;

async function csrfToken(): Promise<string> {
  token ??= fetch('/api/auth/me', { cache: 'no-store' })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error('not signed in'))))
    .then((b: { csrf_token: string }) => b.csrf_token)
    .catch((e) => {
      token = null;
      throw e;
    });
  return token;
}

export async function csrfFetch(input: string, init: RequestInit = {}): Promise<Response> {
  if (sealed) throw new Error('this page is signing out');
  const headers = new Headers(init.headers);
  headers.set('X-CSRF-Token', await csrfToken());
  if (init.body && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return fetch(input, { ...init, headers });
}

/**
 * The page is signing out (the till's Lock, docs/security.md): from now on csrfFetch refuses
 * every mutation, so no sale leaves this page. Hands over the token it held (null if none yet)
 * for the sign-out request alone.
 */
/** Whether this page is signing out (sealCsrf was called): its polls stop and leave the navigation to it. */
export function isSealed(): boolean {
  return sealed;
}

export function sealCsrf(): Promise<string> | null {
  sealed = true;
  const kept = token;
  token = null;
  kept?.catch(() => undefined);
  return kept;
}
