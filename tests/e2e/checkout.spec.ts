// The customer's checkout page in real Chromium (docs/using-counter.md#the-customers-checkout-page-checkoutid), on the
// in-process devnet chain, at a phone (390×844), a desktop (1280×800) and a tablet (1024×768): the store's name and
// icon, the order, the QR code under the till's rule with the URI, Copy and "Open in wallet";
// the live status following an ordinary wallet's payment (the demo wallet's /demo/api/send):
// underpaid with a QR code for the rest, accepted, then paid with the receipt, Print and "Back
// to the shop", all without a reload; data missing when a data payment is paid plainly; axe-core at both sizes, light and dark; the page without
// JavaScript; the language from Accept-Language and the control; the headers and the 404 page;
// zbar decodes each QR code from a screenshot scaled to half size.
import { axeLines } from './axe-check';
import { expect, type Page } from '@playwright/test';
import { fileScopedTest, startDevnetApp } from './fixtures';
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testXpub } from '../helpers/keys';
import type { AppServer } from '../helpers/app-server';
import { freePort } from '../helpers/ports';
import { halfSize, zbarRead } from './qr-read';

const API_KEY = 'checkout_' + randomBytes(24).toString('base64url');
const xpub = testXpub(27);
// The phone and the desktop of docs/using-counter.md#the-customers-checkout-page-checkoutid, and the
// till's tablet: the page must work at all three till sizes.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
] as const;
const SHOP = 'http://127.0.0.1:9/shop/orders/A073';

const test = fileScopedTest(
  ['app'],
  async (onStop) => {
    const port = await freePort(); // the store's icon is served by the app itself
    const shop = await startDevnetApp({
      name: 'checkout',
      xpub,
      port,
      env: { BOOTSTRAP_API_KEY: API_KEY },
      seed: [
        {
          sql: `INSERT INTO store (id, name, icon) VALUES (1, $1, $2)`,
          params: ['Café Ünïcode', `http://127.0.0.1:${port}/icons/icon-192.png`],
        },
      ],
    });
    onStop(() => shop.dispose());
    return { app: shop.app };
  },
  { log: (v) => v.app },
);
test.describe.configure({ mode: 'serial' });

async function create(app: AppServer, body: Record<string, unknown>) {
  const r = await fetch(`${app.url}/api/v1/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json();
}
const ORDER = {
  items: [
    { type: 'item', id: 'FW', name: 'Flat white', count: 2, unit: '10.5', tax: '1.05' },
    { type: 'fee', id: 'svc', name: 'Service', count: 1, unit: '1' },
    { type: 'discount', id: 'promo', name: 'Loyalty discount', count: 1, unit: '-2.5' },
  ],
  order_reference: 'A073',
  vendor_order_url: SHOP,
  fiat_total: '4.80',
  fiat_currency: 'USD',
};
const TOTAL = '20.55';

async function send(app: AppServer, address: string, amount: string) {
  const r = await fetch(`${app.url}/demo/api/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ address, amount }),
  });
  expect(r.status, await r.clone().text()).toBe(200);
}
async function mine(app: AppServer) {
  expect((await fetch(`${app.url}/demo/api/mine`, { method: 'POST', body: JSON.stringify({ blocks: 1 }) })).status).toBe(200);
}
async function apiStatus(app: AppServer, id: string): Promise<string> {
  return (await (await fetch(`${app.url}/api/v1/payments/${id}`, { headers: { Authorization: `Bearer ${API_KEY}` } })).json()).status;
}

/** axe's serious and critical violations; the dark pass (colourOnly) runs the colour rules only. */
function axe(page: Page, where: string, colourOnly = false): Promise<string[]> {
  return axeLines(page, where, colourOnly ? 'dark' : 'light');
}

/** The QR code is drawn under the till's rule, whole, and within the viewport's width. */
async function expectQrRule(page: Page, viewportWidth: number) {
  const qr = page.getByTestId('checkout-qr');
  await expect(qr).toBeVisible();
  const m = await qr.evaluate((img: HTMLImageElement) => ({
    w: img.getBoundingClientRect().width,
    left: img.getBoundingClientRect().left,
    modules: Number(img.dataset.modules),
    natural: img.naturalWidth,
  }));
  expect(m.natural).toBeGreaterThan(0);
  expect(m.w / m.modules).toBeGreaterThanOrEqual(4);
  expect(Number.isInteger(m.w / m.modules)).toBe(true);
  expect(m.left).toBeGreaterThanOrEqual(0);
  expect(m.left + m.w).toBeLessThanOrEqual(viewportWidth);
}

/**
 * What a real decoder (zbar, Debian's zbar-tools) reads from a screenshot of the QR code scaled
 * to half size (docs/using-counter.md#the-till-pos): the code must survive the blur of a phone camera at 30 cm.
 */
async function zbarHalf(page: Page): Promise<string> {
  const file = join(tmpdir(), `checkout-qr-${randomBytes(6).toString('hex')}.png`);
  try {
    return zbarRead(await halfSize(page, await page.getByTestId('checkout-qr').screenshot()), file).join('\n');
  } finally {
    rmSync(file, { force: true });
  }
}

for (const size of SIZES) {
  test(`${size.width}×${size.height}: the order, the code and the link; live underpaid → accepted → paid with the receipt; axe clean`, async ({
    browser,
    app,
  }) => {
    test.setTimeout(120_000);
    const p = await create(app, ORDER);
    const found: string[] = [];
    const ctx = await browser.newContext({ viewport: size, locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await ctx.newPage();
    const res = await page.goto(p.checkout_url);
    expect(res!.status()).toBe(200);
    expect(res!.headers()['cache-control']).toBe('no-store');
    expect(res!.headers()['x-robots-tag']).toBe('noindex');
    await expect(page.locator('[data-hydrated]')).toHaveCount(1);

    // The store, the order with its tax, fee and discount, the totals in DOGE and fiat.
    await expect(page.getByRole('heading', { level: 1, name: 'Café Ünïcode' })).toBeVisible();
    await expect(page.locator('header img')).toHaveJSProperty('complete', true);
    const lines = page.getByTestId('checkout-line');
    await expect(lines).toHaveCount(3);
    await expect(lines.nth(0)).toContainText('Flat white');
    await expect(lines.nth(0)).toContainText('2 × Ð 10.50');
    await expect(lines.nth(0)).toContainText('incl. tax Ð 1.05');
    await expect(lines.nth(0)).toContainText('Ð 22.05');
    await expect(lines.nth(2)).toContainText('−Ð 2.50');
    await expect(page.getByTestId('checkout-order-total')).toHaveText(`Ð ${TOTAL}`);
    await expect(page.getByTestId('checkout-total')).toHaveText(`Ð ${TOTAL}`);
    await expect(page.getByTestId('checkout-fiat')).toHaveText('$4.80');

    // The QR code: the dogecoin: form (no data outputs); its URI as text; Open in wallet is that URI.
    const status = page.getByTestId('checkout-status');
    await expect(status).toHaveAttribute('data-state', 'waiting');
    await expect(page.getByTestId('checkout-qr')).toHaveAttribute('data-uri', p.uri);
    await expect(page.getByTestId('checkout-uri')).toHaveText(p.uri);
    await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute('href', p.uri);
    await expect(page.getByTestId('needs-connect')).toHaveCount(0);
    await expectQrRule(page, size.width);
    expect(await zbarHalf(page)).toBe(p.uri);
    await expect(page.getByTestId('checkout-countdown')).toHaveText(/^1[45]:\d\d$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(p.uri);
    await expect(page.getByTestId('back-to-shop')).toHaveCount(0);
    if (process.env.CHECKOUT_SCREENSHOTS)
      await page.screenshot({ path: `test-results/e2e/checkout-${size.width}-waiting.png`, fullPage: true });
    found.push(...(await axe(page, 'waiting')));
    await page.emulateMedia({ colorScheme: 'dark' });
    found.push(...(await axe(page, 'waiting, dark', true)));
    await page.emulateMedia({ colorScheme: 'light' });

    // Part of it from an ordinary wallet: what is missing, and a QR code and link for the rest.
    const address = /^dogecoin:([^?]+)\?/.exec(p.uri)![1];
    await send(app, address, '5');
    await expect(status).toHaveAttribute('data-state', 'underpaid', { timeout: 15_000 });
    await expect(status).toContainText(`Paid Ð 5.00 of Ð ${TOTAL} — Ð 15.55 still missing`);
    await expect(page.getByRole('heading', { name: 'Scan to pay the rest' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code for the missing Ð 15.55' })).toHaveAttribute(
      'data-uri',
      `dogecoin:${address}?amount=15.55`,
    );
    await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute('href', `dogecoin:${address}?amount=15.55`);
    await expectQrRule(page, size.width);
    expect(await zbarHalf(page)).toBe(`dogecoin:${address}?amount=15.55`);
    found.push(...(await axe(page, 'underpaid')));

    // The rest: accepted (0 of 1 confirmations) without a reload, within a second of the API.
    await send(app, address, '15.55');
    await expect.poll(() => apiStatus(app, p.id), { timeout: 15_000 }).toBe('accepted');
    const t0 = Date.now();
    await expect(status).toHaveAttribute('data-state', 'accepted', { timeout: 3_000 });
    const acceptedMs = Date.now() - t0;
    await expect(status).toContainText('0 of 1 confirmations');
    await expect(page.getByTestId('checkout-qr')).toHaveCount(0);
    await expect(page.getByTestId('back-to-shop')).toHaveAttribute('href', SHOP);
    found.push(...(await axe(page, 'accepted')));

    // A block: paid, and the receipt appears with Print, still without a reload.
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
    await mine(app);
    await expect.poll(() => apiStatus(app, p.id), { timeout: 15_000 }).toBe('confirmed');
    const t1 = Date.now();
    await expect(status).toHaveAttribute('data-state', 'paid', { timeout: 3_000 });
    const paidMs = Date.now() - t1;
    await expect(status).toContainText('Paid ✓');
    const receipt = page.getByTestId('receipt');
    await expect(receipt).toBeVisible();
    await expect(receipt.getByTestId('receipt-total')).toHaveText(`Ð ${TOTAL}`);
    await expect(receipt.getByTestId('receipt-line')).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', SHOP);
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1); // no reload
    if (process.env.CHECKOUT_SCREENSHOTS)
      await page.screenshot({ path: `test-results/e2e/checkout-${size.width}-paid.png`, fullPage: true });
    // The receipt comes with router.refresh(), whose streamed metadata puts the <title> back a
    // moment later: axe reads the page once it has its title again.
    await expect(page).toHaveTitle(/\S/);
    found.push(...(await axe(page, 'paid with the receipt')));
    await page.emulateMedia({ colorScheme: 'dark' });
    found.push(...(await axe(page, 'paid, dark', true)));
    console.log(`checkout ${size.width}×${size.height}: accepted shown ${acceptedMs} ms and paid ${paidMs} ms after the API reported it`);
    await ctx.close();
    expect(found, found.join('\n')).toEqual([]);
  });
}

test('a payment with a data output opens on dogeconnect: and says a DogeConnect wallet is needed', async ({ browser, app }) => {
  const p = await create(app, {
    items: [{ type: 'item', id: 'T', name: 'Ticket', count: 1, unit: '3' }],
    outputs: [{ type: 'data', data: '68656c6c6f' }],
  });
  const ctx = await browser.newContext({ viewport: SIZES[0] });
  const page = await ctx.newPage();
  await page.goto(p.checkout_url);
  await expect(page.getByTestId('checkout-qr')).toHaveAttribute('data-uri', p.connect_uri);
  await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute('href', p.connect_uri);
  await expect(page.getByTestId('needs-connect')).toContainText('DogeConnect wallet');
  await expectQrRule(page, SIZES[0].width);
  expect(await zbarHalf(page)).toBe(p.connect_uri);
  const found = await axe(page, 'data payment');
  await ctx.close();
  expect(found, found.join('\n')).toEqual([]);
});

test("an ordinary wallet pays a data payment's address: data missing, live; nothing more to pay", async ({ browser, app }) => {
  const p = await create(app, {
    items: [{ type: 'item', id: 'T', name: 'Ticket', count: 1, unit: '3' }],
    outputs: [{ type: 'data', data: '68656c6c6f' }],
  });
  const ctx = await browser.newContext({ viewport: SIZES[0] });
  const page = await ctx.newPage();
  await page.goto(p.checkout_url);
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
  const status = page.getByTestId('checkout-status');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  // What an ordinary wallet does with the dogecoin: form: the address and amount, no OP_RETURN.
  await send(app, /^dogecoin:([^?]+)\?/.exec(p.uri)![1], '3');
  await expect(status).toHaveAttribute('data-state', 'data_missing', { timeout: 15_000 });
  await expect(status).toContainText('Paid without the order’s data');
  await expect(status).toContainText('Do not pay again');
  await expect(page.getByTestId('checkout-qr')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveCount(0);
  const found = await axe(page, 'data missing');
  await ctx.close();
  expect(found, found.join('\n')).toEqual([]);
});

test('a cancel by the shop shows at once: cancelled, the code gone, Back to the shop', async ({ browser, app }) => {
  const p = await create(app, ORDER);
  const ctx = await browser.newContext({ viewport: SIZES[0] });
  const page = await ctx.newPage();
  await page.goto(p.checkout_url);
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
  await expect(page.getByTestId('checkout-status')).toHaveAttribute('data-state', 'waiting');
  const r = await fetch(`${app.url}/api/v1/payments/${p.id}/cancel`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(r.status).toBe(200);
  await expect(page.getByTestId('checkout-status')).toHaveAttribute('data-state', 'cancelled', { timeout: 3_000 });
  await expect(page.getByTestId('checkout-status')).toContainText('Cancelled');
  await expect(page.getByTestId('checkout-qr')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', SHOP);
  const found = await axe(page, 'cancelled');
  await ctx.close();
  expect(found, found.join('\n')).toEqual([]);
});

test('without JavaScript: the order, the QR code and the link are there', async ({ browser, app }) => {
  const p = await create(app, ORDER);
  for (const size of SIZES) {
    const ctx = await browser.newContext({ viewport: size, javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(p.checkout_url);
    await expect(page.getByRole('heading', { level: 1, name: 'Café Ünïcode' })).toBeVisible();
    await expect(page.getByTestId('checkout-line')).toHaveCount(3);
    await expect(page.getByTestId('checkout-order-total')).toHaveText(`Ð ${TOTAL}`);
    await expect(page.getByTestId('checkout-status')).toHaveAttribute('data-state', 'waiting');
    await expect(page.getByTestId('checkout-qr')).toHaveAttribute('data-uri', p.uri);
    await expectQrRule(page, size.width);
    await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute('href', p.uri);
    await expect(page.getByTestId('checkout-uri')).toHaveText(p.uri);
    await ctx.close();
  }
});

test("the customer's language: Accept-Language, then the language control", async ({ browser, app }) => {
  const p = await create(app, ORDER);
  const ctx = await browser.newContext({ viewport: SIZES[0], locale: 'es-ES' });
  const page = await ctx.newPage();
  await page.goto(p.checkout_url);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { name: 'Tu pedido' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Abrir en la billetera' })).toHaveAttribute('href', p.uri);
  await expect(page.getByTestId('checkout-total')).toHaveText('Ð 20,55');
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { name: 'Ihre Bestellung' })).toBeVisible();
  await expect(page.getByTestId('checkout-status')).toContainText('Warten auf Zahlung');
  await ctx.close();
});

test('an unknown id is a 404 page with the same headers; the API gives checkout_url', async ({ page, app }) => {
  const p = await create(app, ORDER);
  expect(p.checkout_url).toBe(`${app.url}/checkout/${p.id}`);
  const got = await (await fetch(`${app.url}/api/v1/payments/${p.id}`, { headers: { Authorization: `Bearer ${API_KEY}` } })).json();
  expect(got.checkout_url).toBe(p.checkout_url);
  for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'no such id']) {
    const res = await page.goto(`${app.url}/checkout/${encodeURIComponent(id)}`);
    expect(res!.status()).toBe(404);
    expect(res!.headers()['cache-control']).toBe('no-store');
    expect(res!.headers()['x-robots-tag']).toBe('noindex');
    await expect(page.getByRole('heading', { name: 'Payment not found' })).toBeVisible();
    await expect(page.getByTestId('checkout-qr')).toHaveCount(0);
  }
  await page.setViewportSize(SIZES[0]);
  const found = await axe(page, '404');
  expect(found, found.join('\n')).toEqual([]);
});
