// Cash on the till (docs/counter.md#cash) in real Chromium: in a store priced in USD the
// cashier rings up two muffins, takes Cash beside the Dogecoin charge, types the cash received,
// reads the change, completes the cash sale, and the receipt says Cash with the change. The
// end-of-day report then splits the day by tender. Devnet backend, PGlite, a fixed rate.
import { expect } from '@playwright/test';
import { signInToTill } from './fixtures';
import { testXpub } from '../helpers/keys';
import { sharedShopTest } from './shared-shop';

const OWNER = { email: 'owner@cash.shop', password: 'counter e2e cash password' };

// A store of this file's own on the worker's shared devnet app (tests/e2e/shared-shop.ts), whose
// rate is a fixed 0.1 USD a DOGE.
const test = sharedShopTest({ owner: OWNER, xpub: testXpub(43), name: 'Cash Shop' });

test('a cash sale on the till shows the change, and its receipt says Cash', async ({ page, app }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  const login = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  const headers = {
    'Content-Type': 'application/json',
    Cookie: login.headers.getSetCookie()[0].split(';')[0],
    'X-CSRF-Token': (await login.json()).csrf_token,
  };
  /** `T` is how the test reads the JSON answer (null when it is not JSON). */
  const call = async <T = unknown>(method: string, path: string, body?: unknown) => {
    const r = await fetch(app.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: (await r.json().catch(() => null)) as T };
  };
  expect((await call('PATCH', '/api/admin/settings', { pricing_currency: 'USD' })).status).toBe(200);
  await expect
    .poll(async () => (await call<{ currency: string } | null>('GET', '/api/v1/rates')).body?.currency, { timeout: 20_000 })
    .toBe('USD');
  expect((await call('POST', '/api/admin/products', { sku: 'MUF', name: 'Muffin', price: '2.50', tax_rate: '10' })).status).toBe(201);

  await signInToTill(page, app.url, OWNER);

  const add = page.getByRole('button', { name: 'Add Muffin' });
  await add.click();
  await add.click();
  await expect(page.getByTestId('cart-total')).toHaveText('$5.50');
  await expect(page.getByRole('button', { name: 'Charge $5.50' })).toBeVisible();
  await page.getByRole('button', { name: 'Cash', exact: true }).click();
  const received = page.getByLabel('Cash received');
  await received.fill('5');
  await expect(page.getByTestId('cash-change')).toHaveText('Not enough');
  await expect(page.getByRole('button', { name: 'Complete cash sale' })).toBeDisabled();
  await received.fill('20');
  await expect(page.getByText('Change', { exact: true })).toBeVisible();
  await expect(page.getByTestId('cash-change')).toHaveText('$14.50');
  await page.getByRole('button', { name: 'Complete cash sale' }).click();

  await expect(page).toHaveURL(/\/pos\/receipt\/[A-Za-z0-9_-]+$/);
  const id = /\/pos\/receipt\/([A-Za-z0-9_-]+)$/.exec(page.url())![1];
  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByTestId('receipt-total')).toHaveText('$5.50');
  await expect(receipt.getByTestId('receipt-tender')).toContainText('Cash');
  await expect(receipt.getByTestId('receipt-cash-received')).toHaveText('$20.00');
  await expect(receipt.getByTestId('receipt-change')).toHaveText('$14.50');
  await expect(receipt.getByTestId('receipt-status')).toContainText('Paid');
  await expect(receipt).not.toContainText('Paid to');
  const view = (await call('GET', `/api/v1/payments/${id}`)).body;
  expect(view).toMatchObject({
    status: 'confirmed',
    tender: 'cash',
    cash_received: '20.00',
    change: '14.50',
    fiat_total: '5.50',
    total: '55',
  });

  // The end-of-day report splits the day by tender.
  await page.goto(app.url + '/admin/reports');
  const tenders = page.getByTestId('eod-tenders');
  await expect(tenders.locator('[data-tender="cash"]')).toContainText('55 DOGE');
  await expect(tenders.locator('[data-tender="cash"]')).toContainText('5.50 USD');
  await expect(tenders.locator('[data-tender="doge"]')).toContainText('0 DOGE');
});
