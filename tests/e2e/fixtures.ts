import { test as base, expect, type Fixtures, type Page, type TestInfo } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import { seedPglite } from './seed-pglite';

/** The most of an app's log a failed test's report carries: its last lines. */
const LOG_LINES = 200;

/** What a failed test's report can quote: an app (AppServer) or anything else that logs. */
interface Logged {
  logs(): string;
}

/**
 * Runs a test, and when it fails attaches what its app logged meanwhile (the last LOG_LINES
 * lines): the report then says what the server did (a refusal, a warning, a crash) beside what
 * the page showed. Playwright prints a text attachment with the failure. `app` is asked at the
 * start and at the end: a test that restarted its app (pwa.spec.ts) gets the new one's whole log.
 */
async function withAppLog(app: () => Logged, run: () => Promise<void>, testInfo: TestInfo): Promise<void> {
  const before = app();
  const from = before.logs().length;
  await run();
  if (testInfo.status === testInfo.expectedStatus) return;
  const after = app();
  const lines = (after === before ? after.logs().slice(from) : after.logs()).trimEnd().split('\n');
  await testInfo.attach('app log', { contentType: 'text/plain', body: lines.slice(-LOG_LINES).join('\n') || '(nothing logged)' });
}

export interface FileScopedOptions<T> {
  /** How long starting may take, in ms: by default the test timeout (playwright.config.ts). */
  timeout?: number;
  /** Whose log a failed test's report quotes (withAppLog); none: no log. */
  log?: (values: T) => Logged;
}

/**
 * The `test` of a spec file whose apps, nodes and servers live as long as the file: `start` runs
 * before the file's first test and the `names` of what it returns become test-scoped fixtures;
 * after the file's last test the cleanups `start` registered with `onStop` run, last first (so a
 * start that fails half way still stops what it had started). Call it once, at the top of the
 * file.
 *
 * Why not worker-scoped fixtures: Playwright gives each set of worker-scoped fixtures a worker
 * process and a Chromium of its own, so a spec with its own would run alone in a new worker; these
 * tests have none of their own, so all such files share the workers, one file after another,
 * with one browser (docs/architecture.md, "Where the suite's time goes").
 * A file's own beforeAll and afterAll hooks cannot ask for these fixtures (they are test-scoped).
 */
export function fileScopedTest<K extends string, T extends Record<K, unknown>>(
  names: readonly K[],
  start: (onStop: (stop: () => unknown) => void) => Promise<T>,
  opts: FileScopedOptions<T> = {},
) {
  // What this file's start returned, and its cleanups: one file runs at a time in a worker.
  let values: T | undefined;
  let stops: (() => unknown)[] = [];
  base.beforeAll(async ({}, testInfo) => {
    if (opts.timeout) testInfo.setTimeout(opts.timeout);
    stops = [];
    values = await start((stop) => void stops.push(stop));
  });
  base.afterAll(async ({}, testInfo) => {
    if (opts.timeout) testInfo.setTimeout(opts.timeout);
    values = undefined;
    const todo = stops.reverse();
    stops = [];
    let failed: unknown;
    for (const stop of todo) {
      try {
        await stop();
      } catch (e) {
        failed ??= e;
      }
    }
    if (failed) throw failed;
  });
  const current = (): T => {
    if (!values) throw new Error("this spec file's fixtures are not running: its fileScopedTest beforeAll failed");
    return values;
  };
  // Playwright reads a fixture's dependencies from its first parameter's destructuring: `{}` is none.
  const fixtures: Record<string, unknown> = {};
  for (const name of names) fixtures[name] = async ({}, provide: (v: unknown) => Promise<void>) => provide(current()[name]);
  const log = opts.log;
  if (log)
    fixtures.appLog = [
      ({}, provide: () => Promise<void>, testInfo: TestInfo) => withAppLog(() => log(current()), provide, testInfo),
      { auto: true },
    ];
  return base.extend(fixtures as Fixtures<{ [P in K]: T[P] }>);
}

/**
 * The `test` of a spec file with an app of its own (startApp with `env`), started before the
 * file's first test and stopped after its last; `ready` runs once it is up. Call it once, at the
 * top of the file.
 */
export function appTest(env: Record<string, string> = {}, ready?: (app: AppServer) => Promise<void>, opts: { timeout?: number } = {}) {
  return fileScopedTest(
    ['app'],
    async (onStop) => {
      const app = await startApp(env);
      onStop(() => app.stop());
      if (ready) await ready(app);
      return { app };
    },
    { ...opts, log: (v) => v.app },
  );
}
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

/**
 * The `test` of a spec file whose `app` is a devnet shop (startDevnetApp), started before the
 * file's first test and stopped after its last; `ready` runs once it is up. Call it once, at the
 * top of the file.
 */
export function devnetTest(shop: DevnetShop, ready?: (app: AppServer) => Promise<void>) {
  return fileScopedTest(
    ['app'],
    async (onStop) => {
      const handle = await startDevnetApp(shop);
      onStop(() => handle.dispose());
      if (ready) await ready(handle.app);
      return { app: handle.app };
    },
    { log: (v) => v.app },
  );
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

/**
 * A slow tablet: reloads `page` with its scripts held back, so the server's HTML is on screen and
 * nothing is hydrated until the returned `release` lets them through. The page's context must not
 * run a service worker (it would serve the scripts from its cache, past the hold).
 */
export async function reloadWithScriptsHeld(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/_next/static/chunks/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.reload({ waitUntil: 'commit' });
  return release;
}
