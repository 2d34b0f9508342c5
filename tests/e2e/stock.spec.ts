// The back office's stock page and the dashboard's low-stock count (docs/catalog.md#stock) in
// real Chromium on the built app (devnet): tracked products only, low stock first; a sale paid by
// a plain wallet shows its decrement; an adjustment through the page's form changes the level,
// lists its movement and the dashboard's count follows.
import { expect, type Page } from '@playwright/test';
import { testXpub } from '../helpers/keys';
import { addProduct, sharedShopTest, type SharedApp } from './shared-shop';

const ADMIN = { email: 'owner@stock.test', password: 'counter stock e2e password' };
// [sku, name, stock, low_stock]
const ROWS: [string, string, number | null, number][] = [
  ['COF', 'Coffee', null, 0],
  ['TEA', 'Tea', 40, 5],
  ['JUI', 'Orange juice', 3, 5],
  ['BAG', 'Bagel', 0, 2],
  ['MUF', 'Muffin', 12, 2],
  ['SCO', 'Scone', 4, 4],
];

// A store of its own on the worker's shared app (tests/e2e/shared-shop.ts), each product at Ð 1
// added through the back office's product route; its owner's API key sells through the vendor API.
const test = sharedShopTest({ owner: ADMIN, xpub: testXpub(23), name: 'Stock Café', scopes: ['payments:write'] }, async (app, shop) => {
  for (const [sku, name, stock, low] of ROWS) await addProduct(app, shop, { sku, name, price: '1', stock, low_stock: low });
});

async function signIn(page: Page, app: SharedApp) {
  await page.goto(`${app.url}/login?next=${encodeURIComponent('/admin')}`);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

const lowStat = (page: Page) => page.getByTestId('low-stock-stat').locator('b');
const levelOf = (page: Page, sku: string) => page.getByTestId(`stock-row-${sku}`).getByTestId('stock-level');

test('the stock page lists tracked products low first; a paid sale and an adjustment show; the dashboard counts low stock', async ({
  page,
  app,
  shop,
}) => {
  await signIn(page, app);
  // Bagel (0 ≤ 2), Orange juice (3 ≤ 5) and Scone (4 ≤ 4, at its threshold) are low.
  await expect(lowStat(page)).toHaveText('3');

  await page.getByRole('navigation').getByRole('link', { name: 'Stock' }).click();
  await expect(page).toHaveURL(/\/admin\/stock$/);
  await expect(page.getByRole('heading', { name: 'Stock', level: 1 })).toBeVisible();
  const rows = page.locator('tbody tr[data-testid^="stock-row-"]');
  // Untracked Coffee is not listed; the low ones first, the lowest first.
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(0)).toHaveAttribute('data-testid', 'stock-row-BAG');
  await expect(rows.nth(1)).toHaveAttribute('data-testid', 'stock-row-JUI');
  await expect(rows.nth(2)).toHaveAttribute('data-testid', 'stock-row-SCO');
  await expect(page.getByTestId('stock-row-SCO')).toContainText('Low stock');
  await expect(page.getByTestId('stock-row-BAG')).toContainText('Out of stock');
  await expect(page.getByTestId('stock-row-JUI')).toContainText('Low stock');
  await expect(page.getByTestId('stock-row-TEA')).not.toContainText('Low stock');

  // A vendor API sale of 3 teas, paid by a plain wallet: the worker accepts it and takes them off.
  const made = await (
    await fetch(`${app.url}/api/v1/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${shop.key}` },
      body: JSON.stringify({ items: [{ type: 'item', id: 'TEA', name: 'Tea', count: 3, unit: '1' }] }),
    })
  ).json();
  const address = /^dogecoin:([^?]+)\?/.exec(made.uri)![1];
  const sent = await fetch(`${app.url}/demo/api/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ address, amount: made.total }),
  });
  expect(sent.status).toBe(200);
  await expect(async () => {
    await page.reload();
    await expect(levelOf(page, 'TEA')).toHaveText('37', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });

  // Received 10 juices through the form: no longer low, its movement listed, the count drops.
  await page.getByRole('button', { name: 'Adjust stock of Orange juice' }).click();
  const form = page.getByRole('form', { name: 'Adjust stock of Orange juice' });
  await form.getByLabel('Quantity').fill('10');
  await form.getByLabel('Reason').selectOption('received');
  await form.getByLabel('Note').fill('Tuesday delivery');
  await form.getByRole('button', { name: 'Apply' }).click();
  const moves = form.getByRole('table', { name: 'Movements' });
  await expect(moves.locator('tbody tr').first()).toContainText('+10');
  await expect(moves.locator('tbody tr').first()).toContainText('Tuesday delivery');
  await expect(moves.locator('tbody tr').first()).toContainText(ADMIN.email);
  await expect(levelOf(page, 'JUI')).toHaveText('13');
  await expect(page.getByTestId('stock-row-JUI')).not.toContainText('Low stock');

  // A bad quantity is refused with the API's message, and changes nothing.
  await page.getByRole('button', { name: 'Adjust stock of Muffin' }).click();
  const muffin = page.getByRole('form', { name: 'Adjust stock of Muffin' });
  await muffin.getByLabel('Kind').selectOption('count');
  await muffin.getByLabel('Quantity').fill('2000000000');
  await muffin.getByRole('button', { name: 'Apply' }).click();
  await expect(muffin.getByRole('alert')).toContainText('count');
  await expect(levelOf(page, 'MUF')).toHaveText('12');

  await page.getByRole('navigation').getByRole('link', { name: 'Overview' }).click();
  await expect(lowStat(page)).toHaveText('2');
});
