// A store priced in USD, end to end in real Chromium (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing,
// docs/using-counter.md#reports-and-receipts): the owner switches the pricing currency to USD
// (PATCH /api/admin/settings), adds a product priced in dollars, and an older DOGE-priced product
// is flagged in the catalog and left off the till.
// The cashier sells the USD product: prices, cart and Charge in dollars; the payment screen
// shows the DOGE amount and the locked rate. The demo wallet (second tab) pays, a block
// confirms it. The owner refunds $1 at the sale's rate (10 DOGE), which the demo wallet pays and a
// block confirms, and $1 at today's rate after the market moved (8 DOGE, left unpaid); the
// end-of-day report (/admin/reports) shows the USD figures and the confirmed refund.
// The app runs on the devnet backend (whose seeded catalog is priced in DOGE) with PGlite and
// one rate source, a local server answering in CoinGecko's format (0.1 USD per DOGE, then 0.125).
// The receipt shows the sale's lines in USD. An expired USD sale, reopened from Today's sales after
// a reload, is charged again at the rate of the moment (0.2), and with no fresh rate not at all.
import { expect, type Page } from '@playwright/test';
import { fileScopedTest, paymentIdOf, shownPaymentId } from './fixtures';
import { testXpub } from '../helpers/keys';
import { startApp } from '../helpers/app-server';
import { startRateServer, type RateServer } from '../helpers/rate-server';
import type { ItemJson, RefundJson } from '../helpers/json-shapes';

const OWNER = { email: 'owner@usd.shop', password: 'counter e2e usd password' };
const xpub = testXpub(41);

interface Session {
  cookie: string;
  csrf: string;
}

async function apiLogin(url: string): Promise<Session> {
  const r = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  expect(r.status).toBe(200);
  return { cookie: (r.headers.get('set-cookie') ?? '').split(';')[0], csrf: (await r.json()).csrf_token };
}

/** `T` is how the test reads the JSON answer (null when it is not JSON). */
async function call<T = unknown>(url: string, s: Session, method: string, path: string, body?: unknown) {
  const r = await fetch(url + path, {
    method,
    headers: { Cookie: s.cookie, 'X-CSRF-Token': s.csrf, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as T };
}

/** GET /api/v1/rates (the fields this test reads). */
interface RatesJson {
  currency: string;
  value: string;
}

const test = fileScopedTest(
  ['rates', 'app'],
  async (onStop) => {
    const rates: RateServer = await startRateServer({ kind: 'good', value: '0.1' });
    onStop(() => rates.close());
    const app = await startApp({
      DOGE_NETWORK: 'regtest',
      CHAIN_BACKEND: 'devnet',
      DEVNET_BLOCK_SECONDS: '0',
      STORE_XPUB: xpub,
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
      RATE_SOURCES: 'coingecko',
      RATE_URL_COINGECKO: rates.url,
      RATE_REFRESH_SEC: '1',
      RATE_MAX_AGE_SEC: '8',
    });
    onStop(() => app.stop());
    return { rates, app };
  },
  { log: (v) => v.app },
);

async function signIn(page: Page, url: string, next: string) {
  await page.goto(url + next);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/\//g, '\\/')}$`));
}

test('a store priced in USD sells, is paid by the demo wallet, refunds at the rate then and now, and closes the day in USD', async ({
  page,
  app,
  rates,
}) => {
  test.setTimeout(150_000);
  const owner = await apiLogin(app.url);

  // A product priced while the store still priced in DOGE.
  expect((await call(app.url, owner, 'POST', '/api/admin/products', { sku: 'STK', name: 'Sticker', price: '5' })).status).toBe(201);

  // The store switches to USD; the worker keeps the DOGE/USD rate fresh (fixed 0.1 USD per DOGE).
  const set = await call(app.url, owner, 'PATCH', '/api/admin/settings', { pricing_currency: 'USD' });
  expect(set.status).toBe(200);
  await expect
    .poll(async () => (await call<RatesJson | null>(app.url, owner, 'GET', '/api/v1/rates')).body?.currency, { timeout: 20_000 })
    .toBe('USD');
  await expect.poll(async () => (await call(app.url, owner, 'GET', '/api/v1/rates')).status, { timeout: 20_000 }).toBe(200);

  const muffin = await call(app.url, owner, 'POST', '/api/admin/products', { sku: 'MUF', name: 'Muffin', price: '2.50', tax_rate: '10' });
  expect(muffin.status).toBe(201);
  expect(muffin.body).toMatchObject({ price: '2.50', currency: 'USD' });

  // The back office: prices in USD, and the DOGE-priced sticker flagged (not silently read as $5).
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app.url, '/admin/catalog');
  // (the devnet store comes with a seeded DOGE catalog too: those are flagged the same way)
  await expect(page.getByTestId('catalog-currency-notice')).toContainText(
    /^The store now prices in USD\. \d+ products are still priced in another currency/,
  );
  await expect(page.locator('[data-sku="STK"]')).toContainText('5 DOGE');
  await expect(page.locator('[data-sku="STK"]')).toContainText('priced in DOGE: enter a USD price');
  await expect(page.locator('[data-sku="MUF"]')).toContainText('2.50 USD');
  await expect(page.getByLabel('Price (USD)')).toBeVisible();

  // The till: the USD product only, in dollars; the keypad in dollars too.
  await page.goto(app.url + '/pos');
  await expect(page.getByRole('button', { name: 'Add Sticker', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Add / })).toHaveCount(1); // the USD product only
  const add = page.getByRole('button', { name: 'Add Muffin' });
  await expect(add).toContainText('$2.50');
  await add.click();
  await add.click();
  await expect(page.getByTestId('cart-tax')).toHaveText('$0.50');
  await expect(page.getByTestId('cart-total')).toHaveText('$5.50');
  await page.getByRole('tab', { name: 'Keypad' }).click();
  for (const k of ['1', '.', '2', '5', '9']) await page.getByRole('button', { name: k, exact: true }).click();
  await expect(page.getByLabel('Keypad amount')).toHaveText('USD 1.25'); // two decimals: the 9 is refused
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('$6.75');

  // Charge: the server converts at the locked rate, 6.75 USD / 0.1 = 67.5 DOGE.
  await page.getByRole('button', { name: 'Charge $6.75' }).click();
  await expect(page.getByRole('img', { name: 'Payment QR code' })).toBeVisible();
  await expect(page.getByTestId('payment-total')).toHaveText('Ð 67.50');
  await expect(page.getByTestId('locked-rate')).toContainText('Priced 6.75 USD; rate 1 DOGE = 0.1 USD');
  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  const uri = await page.getByTestId('payment-uri').innerText();
  const id = paymentIdOf(uri);
  const view = (await call<{ payment: unknown }>(app.url, owner, 'GET', `/api/v1/payments/${id}`)).body;
  expect(view).toMatchObject({
    total: '67.5',
    fiat_total: '6.75',
    fiat_tax: '0.50',
    fiat_currency: 'USD',
    rate: { pair: 'DOGE/USD', value: '0.1', source: 'coingecko' },
  });
  expect(view.payment).toMatchObject({ fiat_total: '6.75', fiat_tax: '0.50', fiat_currency: 'USD' });

  // The customer's phone: the demo wallet in a second tab pays the URI.
  const phone = await page.context().newPage();
  await phone.goto(`${app.url}/demo/wallet`);
  await expect(phone.getByTestId('wallet-balance')).toContainText('Ð');
  await phone.getByLabel('Payment URI').fill(uri);
  await phone.getByRole('button', { name: 'Open payment' }).click();
  await expect(phone.getByTestId('payment-total')).toHaveText('Ð 67.5'); // the wallet writes the amount as signed
  await phone.getByRole('button', { name: /^Pay Ð 67\.50?$/ }).click();
  await expect(phone.getByTestId('payment-status')).toHaveAttribute('data-status', 'accepted');
  await expect(status).toHaveAttribute('data-state', 'accepted');
  const mined = await fetch(`${app.url}/demo/api/mine`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"blocks":1}',
  });
  expect(mined.status).toBe(200);
  await expect(status).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
  await phone.close();

  // The receipt (docs/using-counter.md#reports-and-receipts): each line in USD as priced, with its tax, adding up to $6.75 on
  // its face; then the DOGE actually paid and the rate it was locked at.
  await page.goto(`${app.url}/pos/receipt/${id}`);
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toHaveAttribute('data-currency', 'USD');
  const rlines = receipt.getByTestId('receipt-line');
  await expect(rlines).toHaveCount(2);
  await expect(rlines.nth(0)).toContainText('Muffin');
  await expect(rlines.nth(0)).toContainText('2 × $2.50 · tax $0.50');
  await expect(rlines.nth(0)).toHaveAttribute('data-total', '5.50');
  await expect(rlines.nth(0)).toContainText('$5.50');
  await expect(rlines.nth(1)).toContainText('1 × $1.25');
  await expect(rlines.nth(1)).toHaveAttribute('data-total', '1.25');
  await expect(page.getByTestId('receipt-total')).toHaveText('$6.75');
  await expect(page.getByTestId('receipt-doge-total')).toHaveText('Ð 67.50');
  await expect(page.getByTestId('receipt-rate')).toContainText('at 1 DOGE = 0.1 USD (coingecko, ');
  // The USD lines, the DOGE paid and the rate fit the 58 mm and 80 mm printable widths (48 and 72 mm).
  for (const paper of ['58', '80'] as const) {
    await page.setViewportSize({ width: Math.round((Number(paper) / 25.4) * 96), height: 900 });
    await page.goto(`${app.url}/pos/receipt/${id}?paper=${paper}`);
    await expect(page.getByTestId('receipt-total')).toHaveText('$6.75');
    await page.emulateMedia({ media: 'print' });
    const fit = await page.getByTestId('receipt').evaluate((el) => {
      const box = el.getBoundingClientRect();
      let worst = 0;
      for (const c of el.querySelectorAll('*')) worst = Math.max(worst, c.getBoundingClientRect().right - box.right);
      return { width: box.width, scroll: el.scrollWidth, client: el.clientWidth, overflow: worst };
    });
    expect(fit.width, paper).toBeLessThanOrEqual(((paper === '58' ? 48 : 72) / 25.4) * 96 + 0.5);
    expect(fit.scroll, paper).toBeLessThanOrEqual(fit.client);
    expect(fit.overflow, paper).toBeLessThanOrEqual(0.5);
    await page.emulateMedia({ media: 'screen' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Refunds, from the invoice page. $1 at the sale's own rate (0.1): 10 DOGE to the customer's
  // refund address (the demo customer's, which the demo wallet sent with its payment: not its own
  // address, whose coins pay the refund back and so could never pay it, docs/security.md).
  await page.goto(`${app.url}/admin/invoices/${id}`);
  const refundAt = async (rate: 'then' | 'now', reason: string) => {
    await page.getByTestId('refund-open').click();
    const form = page.getByTestId('refund-form');
    await form.getByLabel('Amount').fill('1.00');
    await form.getByLabel('In').selectOption('fiat');
    await form.getByLabel('Rate').selectOption(rate);
    await form.getByLabel('Reason').fill(reason);
    await form.getByRole('button', { name: 'Create refund' }).click();
    await expect(form).toHaveCount(0);
  };
  await refundAt('then', 'one muffin returned');
  const refunds = page.getByTestId('refunds');
  const first = refunds.locator('tr[data-refund]').first();
  await expect(first).toContainText('10 DOGE');
  await expect(first).toContainText('one muffin returned');
  await expect(first.getByTestId('refund-status')).toHaveText('unpaid');
  const refundUri = await first.locator('img.bo-refund-qr').getAttribute('data-uri');
  expect(refundUri).toMatch(/^dogecoin:[A-Za-z0-9]+\?amount=10&dc=/);

  // The merchant's wallet (the demo wallet again) pays the refund; a block confirms it, and the
  // invoice follows by itself.
  const wallet = await page.context().newPage();
  await wallet.goto(`${app.url}/demo/wallet`);
  await wallet.getByLabel('Payment URI').fill(refundUri!);
  await wallet.getByRole('button', { name: 'Open payment' }).click();
  await wallet.getByRole('button', { name: /^Pay Ð 10(\.00?)?$/ }).click();
  await expect(wallet.getByTestId('payment-status')).toHaveAttribute('data-status', 'accepted');
  expect(
    (await fetch(`${app.url}/demo/api/mine`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"blocks":1}' }))
      .status,
  ).toBe(200);
  await wallet.close();
  await expect(first.getByTestId('refund-status')).toHaveText('confirmed', { timeout: 30_000 });

  // The market moves to 0.125 USD per DOGE: $1 at today's rate is 8 DOGE (left unpaid).
  rates.set('coingecko', { kind: 'good', value: '0.125' });
  await expect
    .poll(async () => (await call<RatesJson | null>(app.url, owner, 'GET', '/api/v1/rates')).body?.value, { timeout: 20_000 })
    .toBe('0.125');
  await refundAt('now', 'a goodwill dollar');
  await expect(refunds.locator('tr[data-refund]')).toHaveCount(2);
  await expect(refunds.locator('tr[data-refund]', { hasText: 'a goodwill dollar' })).toContainText('8 DOGE');
  const after = (await call<{ amount_refunded: string; refunds: RefundJson[] }>(app.url, owner, 'GET', `/api/v1/payments/${id}`)).body;
  expect(after.amount_refunded).toBe('10');
  expect(after.refunds.map((r: RefundJson) => [r.amount, r.status])).toEqual(
    expect.arrayContaining([
      ['10', 'confirmed'],
      ['8', 'unpaid'],
    ]),
  );

  // Closing the day: the end-of-day report shows the USD figures (totals.fiat).
  const day = await call<{ totals: unknown }>(
    app.url,
    owner,
    'GET',
    '/api/v1/reports/sales?from=' +
      encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString()) +
      '&to=' +
      encodeURIComponent(new Date(Date.now() + 60_000).toISOString()),
  );
  expect(day.status).toBe(200);
  // Refunds are not sales: the confirmed 10 DOGE refund comes off the net (the unpaid one not yet).
  expect(day.body.totals).toMatchObject({ count: 1, gross: '67.5', refunds: '10', net: '57.5', fiat: { currency: 'USD', gross: '6.75' } });
  await page.goto(app.url + '/admin/reports');
  await expect(page.getByText('6.75 USD').first()).toBeVisible();
  await expect(page.getByText('1 priced sale')).toBeVisible();
});

test("an expired USD sale reopened from Today's sales is charged again in USD at today's rate; with no fresh rate the till says so and charges nothing", async ({
  page,
  app,
  rates,
}) => {
  test.setTimeout(150_000);
  const owner = await apiLogin(app.url);
  expect((await call(app.url, owner, 'PATCH', '/api/admin/settings', { pricing_currency: 'USD' })).status).toBe(200);
  rates.set('coingecko', { kind: 'good', value: '0.1' });
  await expect
    .poll(async () => (await call<RatesJson | null>(app.url, owner, 'GET', '/api/v1/rates')).body?.value, { timeout: 20_000 })
    .toBe('0.1');
  expect((await call(app.url, owner, 'POST', '/api/admin/products', { sku: 'BAG', name: 'Bagel', price: '2.00' })).status).toBe(201);

  await page.clock.install();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app.url, '/pos');
  await page.getByRole('button', { name: 'Add Bagel' }).click();
  await page.getByRole('button', { name: 'Charge $2.00' }).click();
  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('payment-total')).toHaveText('Ð 20.00'); // 2.00 USD / 0.1
  const id = await shownPaymentId(page);

  // A fresh page: the till remembers nothing of the sale, which is reopened from Today's sales.
  await page.goto(app.url + '/pos');
  await page
    .locator(`[data-testid="recent-sale"][data-id="${id}"]`)
    .getByRole('button', { name: /^Reopen/ })
    .click();
  await expect(status).toHaveAttribute('data-state', 'waiting');

  // The market moves to 0.2 USD per DOGE; the sale expires; Charge again prices the same $2.00
  // bagel at the new rate (10 DOGE), with that rate locked: not the old 20 DOGE, not DOGE-priced.
  rates.set('coingecko', { kind: 'good', value: '0.2' });
  await expect
    .poll(async () => (await call<RatesJson | null>(app.url, owner, 'GET', '/api/v1/rates')).body?.value, { timeout: 20_000 })
    .toBe('0.2');
  await page.clock.fastForward('16:00'); // past the store's 15-minute timeout
  await expect(status).toHaveAttribute('data-state', 'expired');
  await page.clock.setSystemTime(Date.now()); // back in step with the server for the new payment
  await page.getByRole('button', { name: 'Charge again' }).click();
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('payment-total')).toHaveText('Ð 10.00');
  await expect(page.getByTestId('locked-rate')).toContainText('Priced 2.00 USD; rate 1 DOGE = 0.2 USD');
  const id2 = await shownPaymentId(page);
  expect(id2).not.toBe(id);
  const view = (await call<{ payment: { items: ItemJson[] } }>(app.url, owner, 'GET', `/api/v1/payments/${id2}`)).body;
  expect(view).toMatchObject({
    total: '10',
    fiat_total: '2.00',
    fiat_currency: 'USD',
    rate: { pair: 'DOGE/USD', value: '0.2', source: 'coingecko' },
  });
  expect(view.payment.items.map((i: ItemJson) => [i.name, i.count, i.unit])).toEqual([['Bagel', 1, '10']]);

  // No source answers any more: once the rate is stale, Charge again says so plainly and
  // creates nothing (no charge at the old rate, none in DOGE); the expired sale stays on screen.
  rates.set('coingecko', { kind: 'status', status: 500 });
  await expect.poll(async () => (await call(app.url, owner, 'GET', '/api/v1/rates')).status, { timeout: 30_000 }).toBe(503);
  const before = (await call<{ payments: unknown[] }>(app.url, owner, 'GET', '/api/v1/payments?limit=100')).body.payments.length;
  await page.clock.fastForward('16:00');
  await expect(status).toHaveAttribute('data-state', 'expired');
  await page.getByRole('button', { name: 'Charge again' }).click();
  await expect(page.getByText('Exchange rate unavailable — prices in USD cannot be charged right now')).toBeVisible();
  await expect(status).toHaveAttribute('data-state', 'expired');
  expect((await call<{ payments: unknown[] }>(app.url, owner, 'GET', '/api/v1/payments?limit=100')).body.payments.length).toBe(before);
  rates.set('coingecko', { kind: 'good', value: '0.1' });
});
