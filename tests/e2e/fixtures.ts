import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import { seedPglite } from './seed-pglite';

/** The most of an app's log a failed test's report carries: its last lines. */
const LOG_LINES = 200;

/**
 * Runs a test, and when it fails attaches what its app logged meanwhile (the last LOG_LINES
 * lines): the report then says what the server did (a refusal, a warning, a crash) beside what
 * the page showed. Playwright prints a text attachment with the failure.
 */
async function withAppLog(app: AppServer, run: () => Promise<void>, testInfo: TestInfo): Promise<void> {
  const from = app.logs().length;
  await run();
  if (testInfo.status === testInfo.expectedStatus) return;
  const lines = app.logs().slice(from).trimEnd().split('\n');
  await testInfo.attach('app log', { contentType: 'text/plain', body: lines.slice(-LOG_LINES).join('\n') || '(nothing logged)' });
}

/** One app server per worker, on a free port, with its own data directory. */
export const test = base.extend<{ appLog: void }, { app: AppServer }>({
  app: [
    async ({}, use) => {
      const app = await startApp();
      await use(app);
      await app.stop();
    },
    { scope: 'worker' },
  ],
  appLog: [({ app }, use, testInfo) => withAppLog(app, use, testInfo), { auto: true }],
});
export { expect } from '@playwright/test';

export interface SeedStatement {
  sql: string;
  params?: unknown[];
}

export interface DevnetShop {
  /** Names the data directory (counter-<name>-e2e-…) in the logs. */
  name: string;
  xpub: string;
  /** Rows written into the PGlite store before the app starts (a store row, products…). */
  seed?: SeedStatement[];
  /** The owner created at start-up (ADMIN_EMAIL, ADMIN_PASSWORD); none: the first run's /setup. */
  owner?: SignIn;
  /** More of the app's environment (BOOTSTRAP_API_KEY, SMTP_TIMEOUT_MS…). */
  env?: Record<string, string>;
  port?: number;
}

export interface DevnetApp {
  app: AppServer;
  /** Stops the app on the same data directory and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops the app and removes its data. */
  dispose(): Promise<void>;
}

/**
 * The app on the in-process devnet chain (regtest, blocks only on request: POST /demo/api/mine),
 * on an embedded PGlite store seeded before it starts.
 */
export async function startDevnetApp(shop: DevnetShop): Promise<DevnetApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `counter-${shop.name}-e2e-`));
  await seedPglite(dataDir, shop.seed ?? []);
  const env = devnetAppEnv({
    STORE_XPUB: shop.xpub,
    ...(shop.owner ? { ADMIN_EMAIL: shop.owner.email, ADMIN_PASSWORD: shop.owner.password } : {}),
    ...shop.env,
  });
  const handle: DevnetApp = {
    app: await startApp(env, { keepDataDir: dataDir, port: shop.port }),
    async restart() {
      const port = handle.app.port;
      await handle.app.stop();
      handle.app = await startApp(env, { keepDataDir: dataDir, port });
    },
    async dispose() {
      await handle.app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

/** The devnet shop of the spec file this worker is running (devnetTest's file-level hooks). */
let fileShop: DevnetApp | undefined;

/**
 * One `test` for every devnet spec, so Playwright runs them in the same workers, one file after
 * another, with one browser: a worker-scoped fixture per spec would make each file's tests a
 * group of their own, each in a new worker process with a new Chromium (docs/architecture.md, "Where the
 * suite's time goes").
 * Each file still has its own app: devnetTest's hooks start it before the file's first test
 * and stop it after its last.
 */
const devnetBase = base.extend<{ app: AppServer; appLog: void }>({
  app: async ({}, provide) => {
    if (!fileShop) throw new Error("this spec file's devnet app is not running: its devnetTest beforeAll failed");
    await provide(fileShop.app);
  },
  appLog: [({ app }, provide, testInfo) => withAppLog(app, provide, testInfo), { auto: true }],
});

/**
 * The `test` of a spec file whose `app` is a devnet shop (startDevnetApp), started before the
 * file's first test and stopped after its last; `ready` runs once it is up. Call it once, at the
 * top of the file.
 */
export function devnetTest(shop: DevnetShop, ready?: (app: AppServer) => Promise<void>) {
  devnetBase.beforeAll(async () => {
    fileShop = await startDevnetApp(shop);
    if (ready) await ready(fileShop.app);
  });
  devnetBase.afterAll(async () => {
    const done = fileShop;
    fileShop = undefined;
    await done?.dispose();
  });
  return devnetBase;
}

/**
 * The till has hydrated: its sale controls are live. They render disabled until then
 * (app/_lib/use-hydrated.ts), so Playwright's clicks wait for them anyway; this also makes
 * sure keyboard input and the till's own polls are running.
 */
export async function tillHydrated(page: Page, timeout?: number): Promise<void> {
  await expect(page.locator('[data-hydrated]')).toHaveCount(1, { timeout });
}

export interface SignIn {
  email: string;
  password: string;
}

/**
 * Signs `who` in on the way to the till (/login?next=/pos) and waits for the hydrated till, and
 * (unless `ready: false`) until it can take money. `labels`: the sign-in form's labels in
 * another language.
 */
export async function signInToTill(
  page: Page,
  url: string,
  who: SignIn,
  opts: { ready?: boolean; labels?: { email: string; password: string; submit: string } } = {},
): Promise<void> {
  const labels = opts.labels ?? { email: 'Email', password: 'Password', submit: 'Sign in' };
  await page.goto(url + '/login?next=%2Fpos');
  await page.getByLabel(labels.email).fill(who.email);
  await page.getByLabel(labels.password).fill(who.password);
  await page.getByRole('button', { name: labels.submit }).click();
  await expect(page).toHaveURL(/\/pos$/);
  if (opts.ready !== false) await expect(page.getByTestId('till-not-ready')).toHaveCount(0, { timeout: 30_000 });
  await tillHydrated(page);
}

/** The payment id a payment URI carries (its envelope URL …/dc/<id>, percent-encoded in the dogecoin: form). */
export function paymentIdOf(uri: string): string {
  const m = /(?:\/|%2F)dc(?:\/|%2F)([A-Za-z0-9_-]+)/.exec(uri);
  if (!m) throw new Error(`no payment id in ${uri}`);
  return m[1];
}

/** The id of the payment on the till's payment screen. */
export async function shownPaymentId(page: Page): Promise<string> {
  return paymentIdOf(await page.getByTestId('payment-uri').innerText());
}

/** New sale on a payment that still waits: the till asks first, and the cashier confirms. */
export async function leaveWaitingSale(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New sale' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Start a new sale' }).click();
}

/**
 * Opens the till's Menu (app/(pos)/pos/till-menu.tsx), which holds the back office, My shift,
 * sound, theme, language, registering the browser, the user and Sign out. `name`: its name in
 * another language.
 */
export async function openTillMenu(page: Page, name = 'Menu'): Promise<void> {
  const menu = page.getByRole('button', { name, exact: true });
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
}

/** Registers this browser as a till from the Menu (Use this device as a till, Till name, Register) and waits for Lock. */
export async function registerTill(page: Page, name: string): Promise<void> {
  await openTillMenu(page);
  await page.getByRole('button', { name: 'Use this device as a till' }).click();
  await page.getByLabel('Till name').fill(name);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('button', { name: 'Lock' })).toBeVisible();
}
