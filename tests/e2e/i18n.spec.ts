// Languages (DESIGN.md §9, issue 16 part 5) in real Chromium, on the in-process devnet chain: a
// cashier whose browser asks for German gets the sign-in page and the till in German, with
// German number formats ("12,50"), types an amount with a decimal comma and charges; switching
// to Spanish changes the whole till and is saved on the user (another browser in English still
// gets Spanish); the owner, in English, is unaffected; <html lang> follows.
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedPglite } from './seed-pglite';
import { hdFromSeed, serializeXpub, derivePath, REGTEST } from '../../lib/doge';
import { startApp, type AppServer } from '../helpers/app-server';

const OWNER = { email: 'owner@i18n.test', password: 'counter i18n e2e password' };
const CASHIER = { email: 'kasse@i18n.test', password: 'kassiererin passwort 2026' };
const xpub = serializeXpub(derivePath(hdFromSeed(new Uint8Array(32).fill(17), REGTEST), "m/44'/1'/0'"));

const test = base.extend<object, { app: AppServer }>({
  app: [
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'counter-i18n-e2e-'));
      await seedPglite(dataDir, [
        { sql: `INSERT INTO store (id, name, tips_enabled) VALUES (1, $1, FALSE)`, params: ['Café Sprachen'] },
        { sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived) VALUES ($1, $2, $3, $4, $5, 0, 0, FALSE)', params: ['p-1', 'SKU1', 'Kaffee', '', '123450000000'] },
      ]);
      const app = await startApp(
        {
          DOGE_NETWORK: 'regtest', CHAIN_BACKEND: 'devnet', DEVNET_BLOCK_SECONDS: '0', STORE_XPUB: xpub,
          ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, BOOTSTRAP_API_KEY: 'i18n_' + randomBytes(24).toString('base64url'),
        },
        { keepDataDir: dataDir },
      );
      await use(app);
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});

async function signIn(page: Page, url: string, who: { email: string; password: string }, labels = { email: 'Email', password: 'Password', submit: 'Sign in' }) {
  await page.goto(url + '/login?next=/pos');
  await page.getByLabel(labels.email).fill(who.email);
  await page.getByLabel(labels.password).fill(who.password);
  await page.getByRole('button', { name: labels.submit }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByTestId('till-not-ready')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
}

async function browserIn(browser: Browser, locale: string) {
  const ctx = await browser.newContext({ locale });
  return { ctx, page: await ctx.newPage() };
}

test('German, then Spanish for the cashier; English for the owner', async ({ browser, app }) => {
  // The owner (English browser) adds a cashier who has chosen no language.
  const owner = await browserIn(browser, 'en-US');
  await signIn(owner.page, app.url, OWNER);
  const me = await (await owner.page.request.get(`${app.url}/api/auth/me`)).json();
  const made = await owner.page.request.post(`${app.url}/api/admin/users`, {
    headers: { 'X-CSRF-Token': me.csrf_token, 'Content-Type': 'application/json' },
    data: { email: CASHIER.email, name: 'Kim', password: CASHIER.password, role: 'cashier' },
  });
  expect(made.status()).toBe(201);

  // A German browser: the sign-in page and the till in German, from Accept-Language.
  const de = await browserIn(browser, 'de-DE');
  await signIn(de.page, app.url, CASHIER, { email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' });
  const p = de.page;
  await expect(p.locator('html')).toHaveAttribute('lang', 'de');
  await expect(p.getByRole('tab', { name: 'Produkte' })).toHaveAttribute('aria-selected', 'true');
  await expect(p.getByRole('button', { name: 'Kaffee hinzufügen' })).toContainText('Ð 1.234,50');
  await expect(p.getByRole('heading', { name: 'Heutige Verkäufe' })).toBeVisible();

  // Typed with a decimal comma on the keyboard; the keypad shows the comma too.
  await p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await p.keyboard.type('12,5');
  await expect(p.getByLabel('Betrag im Tastenfeld')).toHaveText('Ð 12,5');
  await expect(p.getByRole('button', { name: ',', exact: true })).toBeVisible();
  await p.keyboard.press('Enter');
  await expect(p.getByTestId('cart-line')).toHaveCount(1);
  await expect(p.getByTestId('cart-line')).toContainText('Freier Betrag 1');
  await expect(p.getByTestId('cart-line')).toContainText('Ð 12,50 pro Stück');
  await expect(p.getByTestId('cart-total')).toHaveText('Ð 12,50');
  await p.getByRole('button', { name: 'Kassieren Ð 12,50' }).click();

  await expect(p.getByRole('heading', { name: 'Zum Bezahlen scannen' })).toBeVisible();
  await expect(p.getByRole('img', { name: 'QR-Code der Zahlung' })).toBeVisible();
  await expect(p.getByTestId('payment-total')).toHaveText('Ð 12,50');
  await expect(p.getByTestId('payment-status')).toContainText('Warten auf Zahlung');
  // the amount in the payment itself is exact, whatever the language
  await p.getByRole('radio', { name: 'dogecoin: URI' }).click();
  await expect(p.getByTestId('payment-uri')).toContainText(/amount=12\.5(&|$)/);

  // Cancelling asks in German.
  await p.getByRole('button', { name: 'Abbrechen', exact: true }).click();
  await expect(p.getByRole('dialog', { name: 'Diese Zahlung abbrechen?' })).toBeVisible();
  await p.getByRole('button', { name: 'Zahlung abbrechen' }).click();
  await expect(p.getByTestId('payment-status')).toContainText('Abgebrochen');
  await p.getByRole('button', { name: 'Neuer Verkauf' }).click();

  // Switching to Spanish changes the till, and is saved on the user.
  await p.getByRole('combobox', { name: 'Sprache' }).selectOption('es');
  await expect(p.locator('html')).toHaveAttribute('lang', 'es');
  await expect(p.getByRole('tab', { name: 'Productos' })).toBeVisible();
  await expect(p.getByRole('heading', { name: 'Ventas de hoy' })).toBeVisible();
  await expect(p.getByTestId('recent-sale').first()).toContainText('Cancelado');
  await expect(p.getByRole('button', { name: 'Añadir Kaffee' })).toContainText('Ð 1.234,50');
  await p.getByRole('button', { name: 'Añadir Kaffee' }).click();
  await expect(p.getByRole('button', { name: /^Cobrar Ð 1\.234,50$/ })).toBeEnabled();

  // The same cashier in an English browser still gets Spanish: the choice is the user's.
  const en = await browserIn(browser, 'en-US');
  await signIn(en.page, app.url, CASHIER);
  await expect(en.page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(en.page.getByRole('tab', { name: 'Teclado' })).toBeVisible();

  // The owner is unaffected: English, English numbers.
  await owner.page.reload();
  await expect(owner.page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(owner.page.getByRole('button', { name: 'Add Kaffee' })).toContainText('Ð 1,234.50');
  await owner.page.getByRole('button', { name: 'Add Kaffee' }).click();
  await expect(owner.page.getByRole('button', { name: 'Charge Ð 1,234.50' })).toBeEnabled();
  await expect(owner.page.getByRole('heading', { name: "Today's sales" })).toBeVisible();

  // A bad language is a clear 400, never a 500.
  const bad = await owner.page.request.post(`${app.url}/api/auth/locale`, {
    headers: { 'X-CSRF-Token': me.csrf_token, 'Content-Type': 'application/json' }, data: { locale: 'fr' },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toBe('invalid_request');

  for (const c of [owner, de, en]) await c.ctx.close();
});
