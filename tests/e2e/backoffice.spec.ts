// The back office in real Chromium against the real app (embedded PGlite; a store of this file's
// own on the worker's shared devnet app, tests/e2e/shared-shop.ts, with a tpub wallet, so it is
// ready and opens on the overview, docs/operations.md#readiness):
// sign-in, a cashier refused the settings page, an owner's CSV export matching the vendor API,
// an API key shown once, and relay key rotation.
import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { testXpub } from '../helpers/keys';
import { until } from '../helpers/wait';
import { reloadWithScriptsHeld } from './fixtures';
import { sharedShopTest, type SharedApp } from './shared-shop';

const OWNER = { email: 'owner@shop.test', password: 'correct horse battery' };
/** The store's API key (its owner's, made with the store): set before the first test. */
let KEY = '';

const test = sharedShopTest(
  { owner: OWNER, xpub: testXpub(3), name: 'Back Office Shop', scopes: ['payments:read', 'payments:write'] },
  async (app, shop) => {
    KEY = shop.key;
    // The health of this store: asked with its owner's session (without one, it is the first store's).
    const ready = await until(
      async () => (await fetch(`${app.url}/api/health`, { headers: { Cookie: shop.owner.cookie } })).json(),
      (b) => b.ready === true,
    );
    expect(ready.problems).toEqual([]);
  },
);

async function signIn(page: Page, app: SharedApp, who: { email: string; password: string }, next = '/admin') {
  await page.goto(`${app.url}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Wait for the destination to load and hydrate, so later fills reach the live form.
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.waitForLoadState('networkidle');
}

async function vendor(app: SharedApp, method: string, path: string, body?: unknown, key = KEY) {
  const r = await fetch(app.url + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
}

test('an owner signs in, sees the overview, and signs out', async ({ page, app }) => {
  await page.goto(`${app.url}/admin`);
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin$/);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill('wrong password!!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.form-error')).toHaveText('wrong email or password');
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Back office' }).getByRole('link')).toHaveText([
    'Overview',
    'Invoices',
    'Reports',
    'Catalog',
    'Stock',
    'Settings',
    'Terminals',
    'Users',
    'Audit log',
    'Node',
    'Rates',
  ]);
  await expect(page.getByRole('img')).toHaveCount(1); // the sales chart
  const nav = page.getByRole('link', { name: 'Settings' });
  await expect(nav).toHaveCSS('min-height', '44px'); // the back-office stylesheet has applied
  expect((await nav.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${app.url}/admin/settings`);
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Fsettings$/);
});

test('an owner adds a cashier, who is refused the settings page', async ({ page, app }) => {
  await signIn(page, app, OWNER, '/admin/users');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.getByLabel('Email').fill('cashier@shop.test');
  await page.getByLabel('Name').fill('Casey');
  await page.getByLabel('Initial password').fill('cashier password 1');
  await page.locator('select[name=role]').selectOption('cashier');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('status')).toContainText('Created cashier@shop.test');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, app, { email: 'cashier@shop.test', password: 'cashier password 1' }, '/admin/settings');
  await expect(page).toHaveURL(/\/pos\?denied=1$/);
  await page.goto(`${app.url}/admin/settings`);
  await expect(page).toHaveURL(/\/pos\?denied=1$/);
  await expect(page.getByText('Receiving wallet')).toHaveCount(0);
  const api = await page.request.get(`${app.url}/api/admin/settings`);
  expect(api.status()).toBe(403);
  const exp = await page.request.get(`${app.url}/api/admin/invoices/export?format=csv`);
  expect(exp.status()).toBe(403);
});

test('an owner exports a CSV whose rows match the API', async ({ page, app }) => {
  const made = [];
  for (const [n, order] of [
    [1, 'E2E-1'],
    [3, 'E2E-2, "big"'],
  ] as const) {
    const r = await vendor(app, 'POST', '/api/v1/payments', {
      items: [{ type: 'item', id: 'cof', name: 'Coffee', count: n, unit: '2.25', tax: '0.1' }],
      vendor_order_id: order,
      fiat_total: '1.00',
      fiat_currency: 'USD',
    });
    expect(r.status).toBe(201);
    made.push(r.body);
  }
  await signIn(page, app, OWNER, '/admin/invoices');
  await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(2);
  // The detail page shows lines and outputs.
  await page.getByRole('link', { name: 'E2E-1' }).click();
  await expect(page.getByRole('heading', { name: /E2E-1/ })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Coffee' })).toBeVisible();
  await expect(page.getByText(made[0].payment.outputs[0].address)).toBeVisible();
  await page.goBack();

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^invoices-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await file.path())!, 'utf8');
  const api = await vendor(app, 'GET', '/api/v1/payments');
  const parse = (line: string) =>
    [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => (m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]));
  const [head, ...rows] = csv.trimEnd().split('\r\n');
  const cols = head.split(',');
  expect(rows).toHaveLength(api.body.payments.length);
  rows.forEach((line, i) => {
    const row = Object.fromEntries(parse(line).map((v, j) => [cols[j], v]));
    const p = api.body.payments[i];
    expect(row).toEqual({
      id: p.id,
      created_at: p.created_at,
      status: p.status,
      exception: '',
      expired: String(p.expired),
      total: p.total,
      fiat_total: p.payment.fiat_total,
      fiat_currency: p.payment.fiat_currency,
      vendor_order_id: p.payment.vendor_order_id,
      order_reference: p.payment.order_reference,
      address: p.payment.outputs[0].address,
      txid: '',
      confirmed: String(p.confirmed),
      required: String(p.required),
      // the store's zone is UTC here: local time is the instant's own wall-clock
      created_local: p.created_at.slice(0, 19).replace('T', ' '),
      timezone: 'UTC',
      // refunds (docs/api.md#refunds): none here
      amount_refunded: '0',
      refunds: '',
      // how it was paid and on which till (docs/counter.md#terminals): API sales have none
      tender: p.tender,
      terminal: p.terminal ?? '',
    });
  });
  expect(rows[0]).toContain('"E2E-2, ""big"""');
  // Filters narrow the listing and the export.
  await page.getByLabel('Search').fill('E2E-2');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Export JSON' })).toHaveAttribute('href', /q=E2E-2/);
  await page.screenshot({ path: 'test-results/screenshots/backoffice-invoices.png', fullPage: true });
});

test('an owner creates an API key, shown once, that works; then revokes it', async ({ page, app }) => {
  await signIn(page, app, OWNER, '/admin/settings');
  const keys = page.getByRole('region', { name: 'API keys' });
  await keys.getByLabel('Key name').fill('Web shop');
  await keys.getByLabel('invoices:read').check();
  await keys.getByRole('button', { name: 'Create key' }).click();
  const secret = (await keys.getByTestId('new-api-key').textContent())!;
  expect(secret).toMatch(/^ck_[\w-]{43}$/);
  expect((await vendor(app, 'GET', '/api/v1/payments', undefined, secret)).status).toBe(200);
  await page.reload();
  await expect(page.getByRole('region', { name: 'API keys' }).getByText('Web shop')).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Revoke Web shop' }).click();
  await expect(page.getByRole('region', { name: 'API keys' }).getByText('revoked')).toBeVisible();
  expect((await vendor(app, 'GET', '/api/v1/payments', undefined, secret)).status).toBe(401);
});

test('an owner rotates the relay key; new payments are signed with the new key', async ({ page, app }) => {
  await signIn(page, app, OWNER, '/admin/settings');
  const relay = page.getByRole('region', { name: 'Relay key' });
  const before = (await relay.getByTestId('relay-pubkey').textContent())!;
  expect(before).toMatch(/^[0-9a-f]{64}$/);
  const old = await vendor(app, 'POST', '/api/v1/payments', { items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }] });
  expect((await (await fetch(old.body.envelope_url)).json()).pubkey).toBe(before);
  page.once('dialog', (d) => void d.accept());
  await relay.getByRole('button', { name: 'Rotate key' }).click();
  await expect(relay.getByTestId('relay-pubkey')).not.toHaveText(before);
  const after = (await relay.getByTestId('relay-pubkey').textContent())!;
  expect(after).toMatch(/^[0-9a-f]{64}$/);
  await expect(relay.getByText('Retired:')).toContainText(before.slice(0, 16));
  const fresh = await vendor(app, 'POST', '/api/v1/payments', { items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }] });
  expect((await (await fetch(fresh.body.envelope_url)).json()).pubkey).toBe(after);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/screenshots/backoffice-settings-phone.png', fullPage: true });
});

test('the catalog: add a product with an uploaded image, edit its price, archive it', async ({ page, app }) => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  await signIn(page, app, OWNER, '/admin/catalog');
  await expect(page.getByRole('heading', { name: 'Catalog' })).toBeVisible();
  await page.getByLabel('Name').fill('Croissant');
  await page.getByLabel('SKU').fill('CRO-1');
  await page.getByLabel('Price (DOGE)').fill('4.5');
  await page.getByLabel('Tax %').fill('7.5');
  await page.getByLabel('…or image (≤ 48 KiB)').setInputFiles({ name: 'croissant.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByRole('status')).toHaveText('Added Croissant.');
  const item = page.locator('li[data-sku="CRO-1"]');
  await expect(item.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(item).toContainText('tax 7.5%');
  await item.getByRole('button', { name: 'Edit' }).click();
  await item.getByLabel('Price (DOGE)').fill('5');
  await item.getByRole('button', { name: 'Save' }).click();
  await expect(item).toContainText('5 DOGE');
  await item.getByRole('button', { name: 'Archive' }).click();
  await expect(item).toContainText('archived');
  // The live catalog (what the cashier screen sells) no longer lists it; the archive keeps it.
  const live = await (await page.request.get(`${app.url}/api/admin/products`)).json();
  expect(live.products.map((p: { sku: string }) => p.sku)).not.toContain('CRO-1');
  await page.reload();
  await expect(page.locator('li[data-sku="CRO-1"]')).toContainText('5 DOGE');
  // A fake image is refused with the reason.
  await page.getByLabel('Name').fill('Fake');
  await page.getByLabel('SKU').fill('FAKE');
  await page.getByLabel('Price (DOGE)').fill('1');
  await page
    .getByLabel('…or image (≤ 48 KiB)')
    .setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a not a png') });
  await page.getByRole('button', { name: 'Add product' }).click();
  await expect(page.locator('.form-error')).toContainText('not a PNG image');
});

test('an unpaid invoice is cancelled from its detail page', async ({ page, app }) => {
  const r = await vendor(app, 'POST', '/api/v1/payments', {
    items: [{ type: 'item', id: 'x', name: 'Muffin', count: 1, unit: '3' }],
    vendor_order_id: 'CANCEL-ME',
  });
  await signIn(page, app, OWNER, `/admin/invoices/${r.body.id}`);
  await expect(page.getByRole('heading', { name: /CANCEL-ME/ })).toContainText('unpaid');
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Cancel invoice' }).click();
  await expect(page.getByRole('heading', { name: /CANCEL-ME/ })).toContainText('cancelled'); // one badge: a cancel is not shown as declined too
  await expect(page.getByText('cancelled by vendor')).toBeVisible();
  expect((await vendor(app, 'GET', `/api/v1/payments/${r.body.id}`)).body).toMatchObject({
    status: 'declined',
    reason: 'cancelled by vendor',
  });
});

test('an account key typed before the settings page hydrates is saved, not dropped', async ({ browser, app }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  try {
    await signIn(page, app, OWNER, '/admin/settings');
    // A slow tablet: the settings page's HTML is on screen, its scripts are not in yet.
    const release = await reloadWithScriptsHeld(page);
    const key = page.getByLabel('Account public key');
    await expect(key).toBeVisible();
    // Its fields take no typing yet (typed into the server's HTML, a value never reached the
    // form: Save sent the old key and said "saved"); the owner's typing waits for the page.
    await expect(key).toBeDisabled();
    const typed = key.fill(testXpub(212));
    release();
    await typed;
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    const saved = await page.request.get(`${app.url}/api/admin/settings`);
    expect((await saved.json()).store_xpub).toBe(testXpub(212));
  } finally {
    await context.close();
  }
});
