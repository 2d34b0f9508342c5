// A store's staff as the authorisation tests (authz-*.test.ts, docs/security.md) sign them in and
// make their requests: by role name, with an API key, or as nobody; and the one-line sales those
// tests ring up.
import { expect } from 'vitest';
import { appClient, type Answer, type SignedIn } from './client';
import { createStoreKey } from './hosted-stores';
import type { ErrorJson, OutputJson } from './json-shapes';

/** The store's staff: its owner, a manager and two cashiers. */
export type Role = 'owner' | 'manager' | 'cashier' | 'cashier2';

/** A payment as the authz tests read it. */
export interface PaymentJson {
  id: string;
  status: string;
  total: string;
  required: number;
  payment: { outputs: OutputJson[] };
}

/** One item line of `unit` DOGE, plus any other fields of the line. */
export const item = (unit: string, o: Record<string, unknown> = {}) => ({ type: 'item', id: 'SKU', name: 'Thing', count: 1, unit, ...o });

/** The refusal of a request: `status`, the error `code`, and a message that starts by naming `field` (docs/api.md#errors). */
export function expectRefused(r: Answer, status: number, code: string, field: string) {
  expect(r.status, r.text).toBe(status);
  // A refusal's body is an error (docs/api.md#errors); one without a message fails below.
  const body = r.body as ErrorJson;
  expect(body.error).toBe(code);
  expect(body.message.startsWith(field + ':'), body.message).toBe(true);
}

/** Requests to the app at `url()` whose owner is owner@<domain>, every user signing in with `password`. */
export function roleClient(url: () => string, domain: string, password: string) {
  const who = {} as Record<Role, SignedIn>;
  const { req, ready, login } = appClient(url, password);
  /** A request as a signed-in user (with its CSRF token), or with a bearer key, or anonymous; `T` is how the test reads the JSON answer. */
  const as = <T = unknown>(w: Role | { key: string } | null, method: string, path: string, body?: unknown) =>
    req<T>(w && typeof w === 'object' ? w : w ? who[w] : null, method, path, body);
  /** Signs the owner in, has it add the manager and both cashiers (<role>@<domain>), and signs them in. */
  async function signInAll() {
    who.owner = await login(`owner@${domain}`);
    for (const role of ['manager', 'cashier', 'cashier2'] as const) {
      const email = `${role}@${domain}`;
      const r = await as('owner', 'POST', '/api/admin/users', { email, password, role: role === 'cashier2' ? 'cashier' : role });
      expect(r.status, r.text).toBe(201);
      who[role] = await login(email);
    }
  }
  /** A fresh API key with exactly these scopes, made by the owner in the back office. */
  const key = async (scopes: string[]): Promise<{ key: string }> => ({ key: await createStoreKey(url(), who.owner, scopes) });
  return { who, as, ready, signInAll, key };
}
