// Accessibility (docs/using-counter.md#the-till-pos): axe-core over every page and state, in the light and
// the dark theme, in real Chromium: no serious or critical violation anywhere (the dark check runs
// the rules a colour theme can change, contrast; the light check runs them all). Each page and
// state is reached once and checked there in both themes: light, then the page's system theme
// switched to dark (the app follows it live, without a reload: the last test) and back. Reaching
// the states (signing in, a payment paid and mined, every page loaded) costs more than checking
// them, so one walk serves both themes. First run (home, /setup) before any account; then
// /login, the till (empty, cart, payment waiting, paid), the receipt, the cashier's shift, the
// demo wallet (empty, a payment open, paid) and every back-office page, including an invoice's
// detail. Also: the dark theme follows the system, the switch overrides it and is kept on this
// device, with no flash of the wrong theme.
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { tillHydrated, devnetTest, paymentIdOf, openTillMenu } from './fixtures';
import { randomBytes } from 'node:crypto';
import { testXpub } from '../helpers/keys';
import { parseKoinu } from '../../lib/money';
import type { AppServer } from '../helpers/app-server';
import { axe, report, type Found, type Theme } from './axe-check';

const OWNER = { name: 'Ada', email: 'owner@a11y.test', password: 'counter a11y e2e password' };
const API_KEY = 'a11y_' + randomBytes(24).toString('base64url');
const xpub = testXpub(33);

// No ADMIN_EMAIL: the first-run pages are checked before the owner is created through /setup.
const test = devnetTest({
  name: 'a11y',
  xpub,
  env: { BOOTSTRAP_API_KEY: API_KEY },
  seed: [
    { sql: `INSERT INTO store (id, name, tips_enabled) VALUES (1, $1, TRUE)`, params: ['Axe Café'] },
    ...[
      ['Coffee', '/pos-icons/coffee.svg', 1000],
      ['Tea', '🍵', 0],
      ['Cake', '', 700],
    ].map(([name, icon, tax], i) => ({
      sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived) VALUES ($1, $2, $3, $4, $5, $6, $7, FALSE)',
      params: [`p-${i}`, `SKU${i}`, name, icon, parseKoinu(String(3 + i)).toString(), tax, i],
    })),
    {
      sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived) VALUES ($1, $2, $3, $4, $5, 0, 9, TRUE)',
      params: ['p-old', 'OLD', 'Old scone', '', parseKoinu('2').toString()],
    },
  ],
});
test.describe.configure({ mode: 'serial', timeout: 300_000 });

async function themed(browser: Browser, theme: Theme, viewport = { width: 1024, height: 768 }): Promise<BrowserContext> {
  return browser.newContext({ colorScheme: theme, viewport });
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

type Check = (page: Page, where: string) => Promise<void>;

/**
 * A checker of pages as they are, in both themes: light with every rule, then the page's system
 * theme switched to dark for the colour rules, then back to light for what the test does next.
 * `darkDiffered` counts the states whose dark background was not the light one: proof, with
 * matchMedia, that the dark check saw the dark theme.
 */
function bothThemes(found: Found[]) {
  const seen = { darkDiffered: 0 };
  const check: Check = async (page, where) => {
    found.push(...(await axe(page, `light ${where}`, 'light')));
    const light = await background(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), where).toBe(true);
    if ((await background(page)) !== light) seen.darkDiffered++;
    found.push(...(await axe(page, `dark ${where}`, 'dark')));
    await page.emulateMedia({ colorScheme: 'light' });
  };
  return { check, seen };
}

/** The customer's phone: the demo wallet, empty, with the till's payment open, and paid. */
async function payOnThePhone(phone: Page, app: AppServer, uri: string, check: Check) {
  await phone.goto(`${app.url}/demo/wallet`);
  await expect(phone.getByTestId('wallet-balance')).toContainText('Ð');
  await check(phone, '/demo/wallet');
  await phone.getByLabel('Payment URI').fill(uri);
  await phone.getByRole('button', { name: 'Open payment' }).click();
  await expect(phone.getByRole('button', { name: /^Pay Ð/ })).toBeVisible();
  await check(phone, '/demo/wallet payment open');
  await phone.getByRole('button', { name: /^Pay Ð/ }).click();
  await expect(phone.getByTestId('payment-status')).toHaveAttribute('data-status', 'accepted', { timeout: 30_000 });
  await check(phone, '/demo/wallet paid');
  await phone.close();
}

/** Every back-office page, with the paid payment's invoice, then the customer's display. */
async function checkBackOfficeAndDisplay(page: Page, app: AppServer, id: string, check: (where: string) => Promise<void>) {
  for (const path of [
    '/admin',
    '/admin/invoices',
    `/admin/invoices/${id}`,
    '/admin/reports',
    '/admin/catalog',
    '/admin/settings',
    '/admin/users',
    '/admin/audit',
    '/admin/node',
    '/admin/rates',
    '/admin/terminals',
  ]) {
    const r = await page.goto(app.url + path);
    expect(r?.status(), path).toBe(200);
    await check(path);
  }
  // as an unpaired browser finds it (its paired states: customer-display.spec.ts)
  await page.goto(app.url + '/display');
  await check('/display');
}

async function signIn(page: Page, app: AppServer, next: string) {
  await page.goto(`${app.url}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

test('first run: the home page and /setup, light and dark; then the owner is created', async ({ browser, app }) => {
  const found: Found[] = [];
  const { check, seen } = bothThemes(found);
  const ctx = await themed(browser, 'light');
  const page = await ctx.newPage();
  await page.goto(app.url + '/');
  await check(page, '/');
  await page.goto(app.url + '/login');
  await expect(page).toHaveURL(/\/setup$/);
  await check(page, '/setup');
  await page.getByRole('button', { name: 'Create account' }).click(); // empty: the form's errors
  await check(page, '/setup with errors');
  expect(seen.darkDiffered).toBeGreaterThan(0);

  const line = app
    .logs()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .find((l) => l.setup_code);
  await page.goto(app.url + '/setup');
  await page.getByLabel('Setup code').fill(line.setup_code);
  await page.getByLabel('Your name').fill(OWNER.name);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/admin/);
  await ctx.close();
  expect(found, report(found)).toEqual([]);
});

test('every page and state, light and dark, has no serious or critical axe violation', async ({ browser, app }) => {
  const found: Found[] = [];
  const { check: checkOn, seen } = bothThemes(found);
  const ctx = await themed(browser, 'light');
  const page = await ctx.newPage();
  const check = (where: string) => checkOn(page, where);

  await page.goto(`${app.url}/login`);
  await check('/login');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill('a wrong password!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.form-error')).toBeVisible();
  await check('/login with an error');

  // the till: empty, a cart, the keypad, the payment screen waiting, then paid
  await signIn(page, app, '/pos');
  await expect(page.getByTestId('till-not-ready')).toHaveCount(0, { timeout: 30_000 });
  await tillHydrated(page);
  await check('/pos empty');
  await openTillMenu(page);
  await check('/pos with its Menu open');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add Coffee' }).click();
  await page.getByRole('button', { name: 'Add Coffee' }).click();
  await page.getByRole('button', { name: 'Add Tea' }).click();
  await page.getByRole('button', { name: 'Add Cake' }).click();
  await check('/pos cart');
  await page.getByRole('tab', { name: 'Keypad' }).click();
  await page.getByRole('radio', { name: 'Tip' }).click();
  await page.getByRole('button', { name: '1', exact: true }).click();
  await page.getByRole('button', { name: 'Set tip' }).click();
  await check('/pos keypad with a tip');
  await page.getByRole('button', { name: /^Charge Ð/ }).click();
  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await check('/pos payment waiting');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await check('/pos cancel dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Keep waiting' }).click();
  const uri = await page.getByTestId('payment-uri').innerText();
  const id = paymentIdOf(uri);

  await payOnThePhone(await ctx.newPage(), app, uri, checkOn);

  await expect(status).toHaveAttribute('data-state', 'accepted', { timeout: 30_000 });
  await check('/pos payment accepted');
  expect(
    (await fetch(`${app.url}/demo/api/mine`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"blocks":1}' }))
      .status,
  ).toBe(200);
  await expect(status).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
  await check('/pos paid');
  await page.getByRole('button', { name: 'New sale' }).click();
  await expect(page.locator(`[data-testid=recent-sale][data-id="${id}"]`)).toHaveAttribute('data-state', 'confirmed');
  await check("/pos with today's sales");

  await page.goto(`${app.url}/pos/receipt/${id}`);
  await check('/pos/receipt');
  await page.goto(`${app.url}/pos/shift`);
  await check('/pos/shift');

  await checkBackOfficeAndDisplay(page, app, id, check);
  await ctx.close();
  expect(seen.darkDiffered).toBeGreaterThan(0);
  expect(found, report(found)).toEqual([]);
});

test('the theme follows the system; the switch (system, light, dark) overrides it, is kept on this device, and paints no wrong theme first', async ({
  browser,
  app,
}) => {
  const ctx = await themed(browser, 'light');
  const page = await ctx.newPage();
  const bg = () => background(page);
  await signIn(page, app, '/pos');
  const light = await bg();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await bg();
  expect(dark).not.toBe(light);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await bg()).toBe(light);

  // the switch on the till, in its Menu: dark while the system is light, kept across a reload, before any script of the app runs
  await openTillMenu(page);
  const sw = page.getByLabel('Theme');
  await expect(sw).toHaveCount(1);
  await expect(sw).toHaveValue('system');
  await sw.selectOption('dark');
  expect(await bg()).toBe(dark);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const seen: string[] = [];
  await page.exposeFunction('__seen', (v: string) => seen.push(v));
  await page.addInitScript(() => {
    // the theme in force at the very first paint: read as soon as <body> exists, before hydration
    new MutationObserver((_, o) => {
      if (document.body) {
        (window as unknown as { __seen: (v: string) => void }).__seen(document.documentElement.dataset.theme ?? 'system');
        o.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  await openTillMenu(page);
  await expect(page.getByLabel('Theme')).toHaveValue('dark');
  expect(seen[0]).toBe('dark');
  expect(await bg()).toBe(dark);
  const found = await axe(page, 'dark by the switch /pos, its Menu open', 'dark');
  // on a phone the Menu holds the same switch, whole, inside the screen
  await page.setViewportSize({ width: 390, height: 844 });
  const onPhone = page.getByLabel('Theme');
  await expect(onPhone).toHaveValue('dark');
  const box = (await onPhone.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await onPhone.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await page.setViewportSize({ width: 1024, height: 768 });

  // the back office has the same switch and reads the same choice
  await page.goto(app.url + '/admin');
  await expect(page.getByLabel('Theme')).toHaveValue('dark');
  expect(await bg()).toBe(dark);
  await page.getByLabel('Theme').selectOption('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await bg()).toBe(light); // light chosen: the system's dark does not apply
  await page.getByLabel('Theme').selectOption('system');
  expect(await bg()).toBe(dark);
  await page.reload();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
  await ctx.close();
  expect(found, report(found)).toEqual([]);
});
