// One devnet app per Playwright worker, shared by the spec files that need a store of their own
// on a running app and nothing else of it: no start-up setting of their own, no restart, no look
// at its database, no first run. Starting an app costs a spec file 3–6 s of its worker's time
// before its first test (docs/architecture.md, "Where the suite's time goes"); a worker runs its
// files one after the other, so one app serves them all, each on a store of its own made as an
// operator and a shop owner make one over HTTP (tests/helpers/hosted-stores.ts), as
// tests/helpers/shared-app.ts does for vitest's workers.
//
// What a file shares with the files before it on the same worker: the devnet chain and its demo
// wallet, and the app-wide settings below. Its store, users (their emails must be its own),
// catalog, tills and payments are its own.
import { devnetAppEnv, type AppServer } from '../helpers/app-server';
import { openHostedStore, sessionCall, type HostedStore } from '../helpers/hosted-stores';
import { must } from '../helpers/must';
import { testXpub } from '../helpers/keys';
import { workerApp } from '../helpers/worker-app';
import { fileScopedTest, type SignIn } from './fixtures';

const OPERATOR = { email: 'operator@shared-e2e.test', password: 'the shared e2e app operator password' };

/**
 * The app's own settings, the same for every file on it: no request rate limit (files sign in
 * again and again from one address), and a fixed exchange rate of 0.1 fiat units a DOGE in every
 * currency, refreshed each second, for the stores that price in fiat. The operator's store, the
 * first, has a wallet of its own (testXpub 210) so /api/health answers ready.
 */
const SHARED_ENV = devnetAppEnv({
  STORE_XPUB: testXpub(210),
  ADMIN_EMAIL: OPERATOR.email,
  ADMIN_PASSWORD: OPERATOR.password,
  RATE_LIMIT_RPS: '0',
  RATE_SOURCES: 'fixed:0.1',
  RATE_REFRESH_SEC: '1',
});

/** What a spec sees of the shared app: its address, and its output since the spec's store was made. */
export type SharedApp = Pick<AppServer, 'url' | 'port' | 'logs'>;

const sharedApp = workerApp(SHARED_ENV, OPERATOR);

/** The shared app as one spec file sees it: its log from now on. */
function viewFromNow(app: AppServer): SharedApp {
  const from = app.logs().length;
  return { url: app.url, port: app.port, logs: () => app.logs().slice(from) };
}

export interface SharedShopSpec {
  /** The store's owner, who takes the store's invite with this email and password. */
  owner: SignIn;
  /** The store's receiving wallet (an xpub no other store on the app uses). */
  xpub: string;
  /** The store's name. */
  name: string;
  /** The scopes of the owner's API key (`shop.key`); by default payments:read only. */
  scopes?: readonly string[];
}

/**
 * The spec's store: its id and name, its owner's signed-in session, and the secret of an API key
 * its owner made with the spec's scopes.
 */
export type SharedShop = HostedStore;

/**
 * The `test` of a spec file whose `app` is the worker's shared app and whose `shop` is a store of
 * its own on it, made before the file's first test; `ready` runs once it is made.
 */
export function sharedShopTest(spec: SharedShopSpec, ready?: (app: SharedApp, shop: SharedShop) => Promise<void>) {
  return fileScopedTest(
    ['app', 'shop'],
    async () => {
      const { app, operator } = await sharedApp();
      const view = viewFromNow(app);
      const shop = await openHostedStore(app.url, operator, {
        name: spec.name,
        ownerEmail: spec.owner.email,
        password: spec.owner.password,
        xpub: spec.xpub,
        scopes: spec.scopes ?? ['payments:read'],
      });
      if (ready) await ready(view, shop);
      return { app: view, shop };
    },
    { log: (v) => v.app },
  );
}

/** The `test` of a spec file whose `app` is the worker's shared app, for pages no store owns (the wallet check). */
export function sharedAppTest() {
  return fileScopedTest(
    ['app'],
    async () => {
      const { app } = await sharedApp();
      return { app: viewFromNow(app) };
    },
    { log: (v) => v.app },
  );
}

/** Has the shop's owner add a product to its catalog (POST /api/admin/products, expecting 201). */
export async function addProduct(app: SharedApp, shop: SharedShop, product: Record<string, unknown>): Promise<void> {
  const r = await sessionCall(app.url, shop.owner, 'POST', '/api/admin/products', product);
  must(r.status === 201, `adding ${JSON.stringify(product)} answered ${r.status}: ${JSON.stringify(r.body)}`);
}
