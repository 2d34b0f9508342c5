// One devnet app per vitest worker, shared by the integration files that need a store of their
// own on a running app and nothing else of the app (no start-up setting of their own, no restart,
// no look at its log or its database). Starting an app costs about 3 CPU-s before its first
// answer, and more for its first request on each route (docs/architecture.md, "Where the suite's
// time goes"); the files of one worker run one after the other (isolate: false), so one app serves
// them all, each on a store of its own made as an operator and a shop owner make one over HTTP
// (tests/helpers/hosted-stores.ts).
//
// What a file shares with the files before it on the same worker: the devnet chain and its demo
// wallet, and the app-wide settings below. Its store, users, API key, payments and catalog are its
// own, so nothing it asserts depends on which files ran before it.
import { devnetAppEnv } from './app-server';
import { openHostedStore } from './hosted-stores';
import { testXpub } from './keys';
import type { Session } from './sessions';
import { workerApp } from './worker-app';
import { roleScopes } from '@/lib/auth';

const OPERATOR = { email: 'operator@shared-app.test', password: 'the shared app operator password' };

/**
 * The app's own settings, the same for every file on it (each file's store its own xpub; 200 and
 * up are kept for the shared app's stores): no request rate limit (files sign in
 * and call in bursts), and a fixed exchange rate of 0.125 fiat units a DOGE in every currency,
 * refreshed each second, for the stores that price in fiat.
 */
const SHARED_APP_ENV = devnetAppEnv({
  // The operator's own store, the first: /api/health answers for it to a caller with no session.
  STORE_XPUB: testXpub(200),
  ADMIN_EMAIL: OPERATOR.email,
  ADMIN_PASSWORD: OPERATOR.password,
  RATE_LIMIT_RPS: '0',
  RATE_SOURCES: 'fixed:0.125',
  RATE_REFRESH_SEC: '1',
});

const sharedApp = workerApp(SHARED_APP_ENV, OPERATOR);

export interface SharedShop {
  /** The shared app's base URL, and its port. */
  url: string;
  port: number;
  /** The app's output since this store was made (what the calling file's requests logged). */
  logs(): string;
  storeId: number;
  /** The store's name: `Shop of <domain>`. */
  name: string;
  /** `owner@<domain>`, signed in; users of other roles are `<role>@<domain>` (signInRoles). */
  owner: Session;
  domain: string;
  password: string;
  /** The secret of an API key with the owner role's scopes, as BOOTSTRAP_API_KEY gives store 1. */
  key: string;
}

/**
 * A new store on the worker's shared app, named after `domain` (unique to the calling file): its
 * owner `owner@<domain>` with `password`, its receiving wallet `xpub`, and an owner-scoped API key.
 */
export async function sharedShop(domain: string, opts: { xpub: string; password: string }): Promise<SharedShop> {
  const { app, operator } = await sharedApp();
  const logFrom = app.logs().length;
  const store = await openHostedStore(app.url, operator, {
    name: `Shop of ${domain}`,
    ownerEmail: `owner@${domain}`,
    password: opts.password,
    xpub: opts.xpub,
    scopes: roleScopes('owner'),
  });
  return {
    url: app.url,
    port: app.port,
    logs: () => app.logs().slice(logFrom),
    storeId: store.id,
    name: store.name,
    owner: store.owner,
    domain,
    password: opts.password,
    key: store.key,
  };
}
