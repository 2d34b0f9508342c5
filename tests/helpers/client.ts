// Requests to a running app as the integration tests make them: as a browser session (its cookie,
// and its CSRF token on every mutation), with an API key (Bearer), or as nobody; each answer read
// once, as text and, where it is JSON, parsed (docs/api.md#authentication-and-scopes).
import { expect } from 'vitest';
import { until } from './wait';

/** Who asks: a signed-in session, an API key, or both left out (nobody). */
export interface Who {
  cookie?: string;
  csrf?: string;
  key?: string;
  id?: string;
}

/** A signed-in user: its session and its id. */
export type SignedIn = Who & { cookie: string; csrf: string; id: string };

/** An answer: `body` is its text parsed as JSON, or null when the text is not JSON. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  /** More headers (Idempotency-Key, say). */
  headers?: Record<string, string>;
  /** A cookie sent beside the session's: a till's counter_terminal. */
  extraCookie?: string;
  /** The body's type; a string body is sent as it is. application/json unless said. */
  contentType?: string;
}

/** `name=value` of the first Set-Cookie named `name` ('' when there is none). */
export const firstCookie = (r: { headers: Headers }, name: string): string =>
  (r.headers.getSetCookie?.() ?? []).find((c) => c.startsWith(`${name}=`))?.split(';')[0] ?? '';

/** One request; redirects are answers too (not followed). */
export async function request<T>(
  baseUrl: string,
  w: Who | null,
  method: string,
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<Answer<T>> {
  const h: Record<string, string> = { 'Content-Type': opts.contentType ?? 'application/json', ...opts.headers };
  const cookies = [w?.cookie, opts.extraCookie].filter(Boolean).join('; ');
  if (cookies) h.Cookie = cookies;
  if (w?.csrf && method !== 'GET') h['X-CSRF-Token'] = w.csrf;
  if (w?.key) h.Authorization = `Bearer ${w.key}`;
  const sent = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const r = await fetch(baseUrl + path, { method, headers: h, redirect: 'manual', body: sent });
  const text = await r.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, body: parsed as T, text, headers: r.headers };
}

/**
 * A client of the app at `url()` (known once it has started), whose users share `password`. `T`
 * is how the test reads answers' bodies unless a request says otherwise (`req<ProductJson>(…)`).
 */
export function appClient<T = unknown>(url: () => string, password: string) {
  const req = <R = T>(w: Who | null, method: string, path: string, body?: unknown, opts?: RequestOptions) =>
    request<R>(url(), w, method, path, body, opts);
  /** Waits until /api/health says ready. */
  const ready = () =>
    until(
      async () => (await fetch(url() + '/api/health')).json() as Promise<{ ready?: boolean }>,
      (h) => h.ready === true,
      60_000,
    );
  /** Signs in with the password (expecting 200). */
  async function login(email: string): Promise<SignedIn> {
    const r = await request<{ csrf_token: string; user: { id: string } }>(url(), null, 'POST', '/api/auth/login', { email, password });
    expect(r.status, r.text).toBe(200);
    return { cookie: firstCookie(r, 'counter_session'), csrf: r.body.csrf_token, id: r.body.user.id };
  }
  /** Signs in with a PIN on the till whose counter_terminal cookie is `terminalCookie` (expecting 200). */
  async function pinIn(terminalCookie: string, userId: string, pin: string): Promise<Who & { cookie: string; csrf: string }> {
    const r = await request<{ csrf_token: string }>(
      url(),
      null,
      'POST',
      '/api/auth/pin',
      { user_id: userId, pin },
      { extraCookie: terminalCookie },
    );
    expect(r.status, r.text).toBe(200);
    return { cookie: `${firstCookie(r, 'counter_session')}; ${terminalCookie}`, csrf: r.body.csrf_token };
  }
  return { req, ready, login, pinIn };
}
