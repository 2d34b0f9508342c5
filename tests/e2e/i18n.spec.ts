// Languages (docs/using-counter.md#languages) in real Chromium, on the in-process devnet chain: a
// cashier whose browser asks for German gets the sign-in page and the till in German, with
// German number formats ("12,50"), types an amount with a decimal comma and charges; switching
// to Spanish changes the whole till and is saved on the user (another browser in English still
// gets Spanish); the owner, in English, is unaffected; <html lang> follows. The back office
// (overview, invoices, an invoice, settings) in German then Portuguese, with their number and
// date formats in the store's zone; the first-run setup page in German and Portuguese.
import { expect, type Browser } from '@playwright/test';
import { signInToTill, devnetTest, openTillMenu } from './fixtures';
import { randomBytes } from 'node:crypto';
import { testXpub } from '../helpers/keys';
import { startApp } from '../helpers/app-server';

const OWNER = { email: 'owner@i18n.test', password: 'counter i18n e2e password' };
const CASHIER = { email: 'kasse@i18n.test', password: 'kassiererin passwort 2026' };
const API_KEY = 'i18n_' + randomBytes(24).toString('base64url');
const xpub = testXpub(17);

const test = devnetTest({
  name: 'i18n',
  xpub,
  owner: OWNER,
  env: { BOOTSTRAP_API_KEY: API_KEY },
  seed: [
    { sql: `INSERT INTO store (id, name, tips_enabled) VALUES (1, $1, FALSE)`, params: ['Café Sprachen'] },
    {
      sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived) VALUES ($1, $2, $3, $4, $5, 0, 0, FALSE)',
      params: ['p-1', 'SKU1', 'Kaffee', '', '123450000000'],
    },
  ],
});

async function browserIn(browser: Browser, locale: string) {
  const ctx = await browser.newContext({ locale });
  return { ctx, page: await ctx.newPage() };
}

test('German, then Spanish for the cashier; English for the owner', async ({ browser, app }) => {
  // The owner (English browser) adds a cashier who has chosen no language.
  const owner = await browserIn(browser, 'en-US');
  await signInToTill(owner.page, app.url, OWNER);
  const me = await (await owner.page.request.get(`${app.url}/api/auth/me`)).json();
  const made = await owner.page.request.post(`${app.url}/api/admin/users`, {
    headers: { 'X-CSRF-Token': me.csrf_token, 'Content-Type': 'application/json' },
    data: { email: CASHIER.email, name: 'Kim', password: CASHIER.password, role: 'cashier' },
  });
  expect(made.status()).toBe(201);

  // A German browser: the sign-in page and the till in German, from Accept-Language.
  const de = await browserIn(browser, 'de-DE');
  await signInToTill(de.page, app.url, CASHIER, { labels: { email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' } });
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

  // Switching to Spanish (in the till's Menu) changes the till, and is saved on the user.
  await openTillMenu(p, 'Menü');
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
  await signInToTill(en.page, app.url, CASHIER);
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
    headers: { 'X-CSRF-Token': me.csrf_token, 'Content-Type': 'application/json' },
    data: { locale: 'fr' },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toBe('invalid_request');

  for (const c of [owner, de, en]) await c.ctx.close();
});

test('the back office in German, then Portuguese', async ({ browser, app }) => {
  const { ctx, page } = await browserIn(browser, 'en-US');
  await page.goto(app.url + '/login?next=/admin');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(app.url + '/admin');
  const me = await (await page.request.get(`${app.url}/api/auth/me`)).json();
  const headers = { 'X-CSRF-Token': me.csrf_token, 'Content-Type': 'application/json' };
  // Wait for the store to be ready (the devnet's first block), then an invoice of 2 × 1234.5 DOGE.
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible({ timeout: 30_000 });
  const made = await page.request.post(`${app.url}/api/v1/payments`, {
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    data: { items: [{ type: 'item', id: 'p-1', name: 'Kaffee', count: 2, unit: '1234.5', tax: '0' }], vendor_order_id: 'DE-1' },
  });
  expect(made.status()).toBe(201);
  const id = (await made.json()).id as string;
  const toDe = await page.request.post(`${app.url}/api/auth/locale`, { headers, data: { locale: 'de' } });
  expect(toDe.status(), await toDe.text()).toBe(200);

  // Overview: German words, German numbers, a German date in the store's zone (UTC here).
  await page.goto(app.url + '/admin');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { name: 'Übersicht' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Backoffice' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Letzte Rechnungen' })).toBeVisible();
  const row = page.locator('.bo-list-row', { hasText: 'DE-1' });
  await expect(row).toContainText('2.469,00 DOGE');
  await expect(row).toContainText('unbezahlt');
  await expect(row.locator('time')).toHaveText(/^\d{1,2}\. [A-Za-zäöü]{3,4}\.? \d{4}, \d{2}:\d{2} UTC$/);
  await expect(page.getByText('Verkäufe pro Tag, letzte 30 Tage')).toBeVisible();

  // The invoice list: headings, filter, export, the row.
  await page.getByRole('link', { name: 'Alle Rechnungen' }).click();
  await expect(page.getByRole('heading', { name: 'Rechnungen', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'CSV exportieren' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Erstellt' })).toBeVisible();
  await expect(page.getByLabel('Status').locator('option[value="confirmed"]')).toHaveText('bestätigt');
  await expect(page.locator(`tr[data-id="${id}"]`)).toContainText('2.469,00 DOGE');

  // One invoice: its sections, its lines with German decimals; the product's name is data.
  await page.getByRole('link', { name: 'DE-1' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/invoices/${id}$`));
  await expect(page.getByRole('heading', { name: 'Zahlung', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Positionen' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Kaffee' })).toBeVisible();
  await expect(page.getByRole('cell', { name: '1.234,5', exact: true })).toBeVisible();
  await expect(page.getByText('Läuft ab')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rechnung stornieren' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Als beglichen markieren' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Ereigniszustellungen' })).toBeVisible();

  // Settings.
  await page.goto(app.url + '/admin/settings');
  await expect(page.getByRole('heading', { name: 'Einstellungen', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Geschäftsprofil' })).toBeVisible();
  await expect(page.getByLabel('Name des Geschäfts')).toHaveValue('Café Sprachen');
  await expect(page.getByRole('button', { name: 'Einstellungen speichern' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'API-Schlüssel' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Zeitzone und Belege per E-Mail' })).toBeVisible();

  // Portuguese, from the back office's own language control.
  await page.getByRole('combobox', { name: 'Sprache' }).selectOption('pt');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt');
  await expect(page.getByRole('heading', { name: 'Configurações', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Salvar configurações' })).toBeVisible();
  await page.goto(app.url + '/admin/invoices');
  await expect(page.getByRole('heading', { name: 'Faturas', exact: true })).toBeVisible();
  const ptRow = page.locator(`tr[data-id="${id}"]`);
  await expect(ptRow).toContainText('2.469,00 DOGE');
  await expect(ptRow).toContainText('não pago');
  await expect(ptRow.locator('time')).toHaveText(/^\d{1,2} de [a-zç]{3,4}\.? de \d{4}, \d{2}:\d{2} UTC$/);
  await page.goto(app.url + '/admin');
  await expect(page.getByRole('heading', { name: 'Visão geral' })).toBeVisible();

  // Back to English for the owner; the page is as it always was.
  expect((await page.request.post(`${app.url}/api/auth/locale`, { headers, data: { locale: 'en' } })).status()).toBe(200);
  await page.goto(app.url + '/admin/invoices');
  await expect(page.getByRole('heading', { name: 'Invoices', exact: true })).toBeVisible();
  await expect(page.locator(`tr[data-id="${id}"]`)).toContainText('2469 DOGE');
  await ctx.close();
});

test('the first-run setup page in German, then Portuguese', async ({ browser }) => {
  // A fresh app with no account at all, so /setup is open.
  const fresh = await startApp();
  try {
    const { ctx, page } = await browserIn(browser, 'de-DE');
    await page.goto(fresh.url + '/setup');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Inhaberkonto anlegen' })).toBeVisible();
    await expect(page.getByLabel('Einrichtungscode')).toBeVisible();
    await expect(page.getByLabel('Ihr Name')).toBeVisible();
    await expect(page.getByText('Mindestens 12 Zeichen.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Konto anlegen' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('pt');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt');
    await expect(page.getByRole('heading', { name: 'Crie a conta do proprietário' })).toBeVisible();
    await expect(page.getByLabel('Código de configuração')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Criar conta' })).toBeVisible();
    await ctx.close();
  } finally {
    await fresh.stop();
  }
});
