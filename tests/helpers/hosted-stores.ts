// Stores on a running app made the way an operator and a shop owner make them over HTTP
// (docs/architecture.md#data): the operator creates the store and its invite, the owner takes the
// invite with a new account, sets the store's receiving wallet and creates the store's API key.
import type { Session } from './sessions';
import { answer, type Answer } from './answer';
import { must } from './must';

/** A JSON call with a session's cookie (and its CSRF token on mutations); `T` is how the caller reads the answer. */
export async function sessionCall<T = unknown>(
  baseUrl: string,
  who: Session,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Cookie: who.cookie };
  if (method !== 'GET') headers['X-CSRF-Token'] = who.csrf;
  return answer<T>(await fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

/** The same call, expecting a 2xx; its JSON body. */
async function ok<T = unknown>(baseUrl: string, who: Session, method: string, path: string, body?: unknown): Promise<T> {
  const r = await sessionCall<T>(baseUrl, who, method, path, body);
  must(r.status < 300, `${method} ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Has a store's owner (or manager) change its settings: the receiving wallet is `store_xpub`. */
export async function patchStoreSettings(baseUrl: string, who: Session, patch: Record<string, unknown>): Promise<void> {
  await ok(baseUrl, who, 'PATCH', '/api/admin/settings', patch);
}

/** Has a store's owner create an API key with `scopes`; the key's secret (shown once). */
export async function createStoreKey(baseUrl: string, owner: Session, scopes: readonly string[]): Promise<string> {
  const made = await ok<{ secret: string }>(baseUrl, owner, 'POST', '/api/admin/api-keys', { name: 'integration', scopes });
  must(typeof made.secret === 'string', `the new API key came without its secret: ${JSON.stringify(made)}`);
  return made.secret;
}

export interface HostedStore {
  id: number;
  name: string;
  owner: Session;
  /** The secret of the API key the owner created. */
  key: string;
}

/**
 * The operator (`operator`, a signed-in session) creates store `name`; a visitor takes its invite
 * with a new account (`ownerEmail`, `password`), then sets the wallet and creates the API key.
 */
export async function openHostedStore(
  baseUrl: string,
  operator: Session,
  store: { name: string; ownerEmail: string; password: string; xpub: string; scopes: readonly string[] },
): Promise<HostedStore> {
  const made = await ok<{ id: number; invite_url: string }>(baseUrl, operator, 'POST', '/api/operator/stores', {
    name: store.name,
    owner_email: store.ownerEmail,
  });
  const token = String(made.invite_url).split('/invite/')[1];
  const taken = await fetch(`${baseUrl}/api/invites/${token}/account`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: `Owner of ${store.name}`, password: store.password }),
  });
  const body = await answer<{ csrf_token: string }>(taken);
  must(body.status === 201, `taking the invite answered ${body.status}: ${JSON.stringify(body.body)}`);
  const cookie = taken.headers
    .getSetCookie()
    .find((c) => c.startsWith('counter_session='))!
    .split(';')[0];
  const owner: Session = { cookie, csrf: body.body.csrf_token };
  const me = await ok<{ store: unknown }>(baseUrl, owner, 'GET', '/api/auth/me');
  const own = me.store as { id?: unknown; name?: unknown; role?: unknown } | null;
  must(
    own?.id === made.id && own.name === store.name && own.role === 'owner' && Object.keys(own).length === 3,
    `the new owner's store is ${JSON.stringify(me.store)}, not store ${made.id} (${store.name}) as its owner`,
  );
  await patchStoreSettings(baseUrl, owner, { store_xpub: store.xpub });
  return { id: made.id, name: store.name, owner, key: await createStoreKey(baseUrl, owner, store.scopes) };
}
