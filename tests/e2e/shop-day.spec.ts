// A corner shop's day (docs/catalog.md) in real Chromium on the devnet
// app: a 400-product catalog with categories and tracked stock (one product down to its last
// one) is imported from CSV through the back office (preview, then Apply). At 390×844 and at
// 1024×768 the till with 400 products keeps its layout rules (no sideways scroll, tap targets of
// 44 px, Charge on screen however the page is scrolled), and a sale is rung up with a category
// tab, the search box and a scanner's burst, charged, and paid with the demo wallet; the back
// office's stock page shows what was sold taken off. Then the product sold out shows "Out of
// stock" on the till, is sold all the same, and its stock goes negative.
import { expect, type Locator, type Page } from '@playwright/test';
import { testXpub } from '../helpers/keys';
import { signInToTill } from './fixtures';
import { addProduct, sharedShopTest } from './shared-shop';
import { cartLine, grid, scan } from './till-catalog-helpers';

const OWNER = { email: 'owner@shop-day.test', password: 'counter shop day e2e password' };
const CATEGORIES = ['Bakery', 'Dairy', 'Drinks', 'Frozen', 'Fruit', 'Household', 'Snacks', 'Stationery'];
const NOUNS: Record<string, string> = {
  Bakery: 'Bread',
  Dairy: 'Milk',
  Drinks: 'Cola',
  Frozen: 'Peas',
  Fruit: 'Apples',
  Household: 'Soap',
  Snacks: 'Crisps',
  Stationery: 'Pencil',
};
const STYLES = ['Fresh', 'Classic', 'Organic', 'Mini', 'Large'];

interface Row {
  sku: string;
  name: string;
  price: string;
  category: string;
  barcode: string;
  stock: number | null;
  low: number;
}
const sku = (i: number) => `SHOP-${String(i).padStart(3, '0')}`;
/** The products the sales below use, by name; every tenth other product is tracked too. */
const SPECIAL: Record<number, Pick<Row, 'name' | 'category' | 'stock' | 'low'>> = {
  7: { name: 'Last Torch', category: 'Household', stock: 1, low: 0 },
  100: { name: 'Oat Milk Litre', category: 'Dairy', stock: 30, low: 5 },
  200: { name: 'Sea Salt Crisps', category: 'Snacks', stock: 12, low: 2 },
  300: { name: 'Jasmine Tea Tin', category: 'Drinks', stock: 8, low: 2 },
  301: { name: 'Rye Sourdough', category: 'Bakery', stock: 15, low: 3 },
  302: { name: 'Battery Pack', category: 'Household', stock: 25, low: 5 },
};
const product = (i: number): Row => {
  const category = CATEGORIES[i % CATEGORIES.length];
  const base: Row = {
    sku: sku(i),
    name: `${STYLES[i % STYLES.length]} ${NOUNS[category]} ${i}`,
    price: `${(i % 9) + 1}.5`,
    category,
    barcode: `2000000${String(i).padStart(6, '0')}`,
    stock: i % 10 === 0 ? 50 : null,
    low: i % 10 === 0 ? 5 : 0,
  };
  return { ...base, ...SPECIAL[i] };
};
const ROWS = Array.from({ length: 400 }, (_, i) => product(i));
const CSV =
  'sku,name,price,category,barcode,stock,low_stock\n' +
  ROWS.map((r) => [r.sku, r.name, r.price, r.category, r.barcode, r.stock ?? '', r.stock === null ? '' : r.low].join(',')).join('\n') +
  '\n';
const inCategory = (c: string) => ROWS.filter((r) => r.category === c).length;
const TRACKED = ROWS.filter((r) => r.stock !== null).length;
/** The shop's one product before the import (House blend, with no category). */
const DEMO = 1;
// A store of its own on the worker's shared app (tests/e2e/shared-shop.ts), with one product
// before the import, House blend at Ð 1, added through the back office's product route.
const test = sharedShopTest({ owner: OWNER, xpub: testXpub(62), name: 'Day Shop' }, async (app, shop) => {
  await addProduct(app, shop, { sku: 'HOUSE', name: 'House blend', price: '1' });
});
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const charge = (page: Page) => page.getByRole('button', { name: /^Charge/ });
const add = (page: Page, name: string) => page.getByRole('button', { name: `Add ${name}` });
const levelOf = (page: Page, s: string) => page.getByTestId(`stock-row-${s}`).getByTestId('stock-level');

/** The element's box lies wholly inside the viewport. */
async function inViewport(page: Page, loc: Locator, what: string) {
  const b = await loc.boundingBox();
  const vp = page.viewportSize()!;
  expect(b, what).not.toBeNull();
  expect(b!.y, `${what}: top ${b!.y}`).toBeGreaterThanOrEqual(0);
  expect(b!.x, `${what}: left ${b!.x}`).toBeGreaterThanOrEqual(0);
  expect(b!.y + b!.height, `${what}: bottom ${b!.y + b!.height} > ${vp.height}`).toBeLessThanOrEqual(vp.height + 0.5);
  expect(b!.x + b!.width, `${what}: right ${b!.x + b!.width} > ${vp.width}`).toBeLessThanOrEqual(vp.width + 0.5);
}

/**
 * The till's layout rules (docs/using-counter.md#the-till-pos): the page never
 * scrolls sideways; the till's controls (product buttons, category tabs, the search box,
 * Charge) are touch targets of at least 44 px; the total and Charge are on screen at the top of
 * the page and scrolled to its bottom.
 */
async function meetsLayoutRules(page: Page) {
  const sideways = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(sideways.scroll, `page ${sideways.scroll} px wide in a ${sideways.client} px viewport`).toBeLessThanOrEqual(sideways.client);
  const small = await page.evaluate(() => {
    const targets = [
      ...document.querySelectorAll('#till-category-panel button'),
      ...document.querySelectorAll('[role=tab], [role=searchbox], input[type=search]'),
      ...[...document.querySelectorAll('button')].filter((b) => /^Charge/.test(b.textContent ?? '')),
    ];
    return targets.flatMap((e) => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return []; // not rendered (the other tab's controls)
      return r.width < 44 - 0.5 || r.height < 44 - 0.5
        ? [`${e.getAttribute('aria-label') ?? e.textContent?.trim().slice(0, 30)}: ${r.width.toFixed(0)}×${r.height.toFixed(0)}`]
        : [];
    });
  });
  expect(small, 'touch targets under 44 px').toEqual([]);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await inViewport(page, charge(page), 'Charge, scrolled to the bottom');
  await inViewport(page, page.getByTestId('cart-total'), 'Total, scrolled to the bottom');
  await page.evaluate(() => window.scrollTo(0, 0));
  await inViewport(page, charge(page), 'Charge at the top');
}

/** Charges the cart and pays it with the demo wallet in a second tab (the customer's phone); a block confirms it. */
async function chargeAndPay(page: Page, url: string, total: string) {
  await expect(page.getByTestId('cart-total')).toHaveText(`Ð ${total}`);
  await charge(page).click();
  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('payment-total')).toHaveText(`Ð ${total}`);
  const uri = await page.getByTestId('payment-uri').innerText();
  const phone = await page.context().newPage();
  await phone.goto(`${url}/demo/wallet`);
  await expect(phone.getByTestId('wallet-balance')).toContainText('Ð');
  await phone.getByLabel('Payment URI').fill(uri);
  await phone.getByRole('button', { name: 'Open payment' }).click();
  // The wallet writes the amount without trailing zeros (Ð 18, Ð 8.5).
  const bare = total.replace(/\.?0+$/, '');
  await expect(phone.getByTestId('payment-total')).toHaveText(`Ð ${bare}`);
  await phone.getByRole('button', { name: `Pay Ð ${bare}`, exact: true }).click({ timeout: 30_000 });
  await expect(status).toHaveAttribute('data-state', /accepted|confirmed/, { timeout: 30_000 });
  await phone.close();
  const mined = await fetch(`${url}/demo/api/mine`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"blocks":1}',
  });
  expect(mined.status).toBe(200);
  await expect(status).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
  await expect(page.getByTestId('hand-over')).toHaveText('OK to hand over');
}

/** The back office's stock page (in another tab of the signed-in browser) shows `levels` by SKU. */
async function expectStock(page: Page, url: string, levels: Record<string, string>) {
  const office = await page.context().newPage();
  await office.goto(`${url}/admin/stock`);
  await expect(office.getByRole('heading', { name: 'Stock', level: 1 })).toBeVisible();
  await expect(office.locator('tbody tr[data-testid^="stock-row-"]')).toHaveCount(TRACKED);
  for (const [s, level] of Object.entries(levels)) await expect(levelOf(office, s), s).toHaveText(level);
  return office;
}

test('the 400-product catalog, with categories and stock, is imported from CSV through the back office', async ({ page, app }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(`${app.url}/login?next=${encodeURIComponent('/admin/catalog')}`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/catalog$/);
  await expect(page.getByLabel('CSV file to import')).toBeEnabled(); // enabled once the page hydrates
  await page.getByLabel('CSV file to import').setInputFiles({ name: 'corner-shop.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(page.getByTestId('import-preview')).toBeVisible();
  await expect(page.getByTestId('plan-create')).toHaveText('400');
  await expect(page.getByTestId('plan-update')).toHaveText('0');
  await expect(page.getByTestId('import-errors')).toHaveCount(0);
  await page.getByRole('button', { name: 'Apply import' }).click();
  await expect(page.getByTestId('import-done')).toHaveText('Imported: 400 new, 0 updated, 0 unchanged.');
  await expect(page.locator('.bo-product[data-sku]')).toHaveCount(DEMO + 400);
  await expect(page.getByTestId('category-order').locator('li b')).toHaveText(CATEGORIES);

  // The stock it carried: every tracked product on the stock page, at the imported level.
  await page.goto(`${app.url}/admin/stock`);
  await expect(page.locator('tbody tr[data-testid^="stock-row-"]')).toHaveCount(TRACKED);
  await expect(levelOf(page, sku(7))).toHaveText('1');
  await expect(levelOf(page, sku(100))).toHaveText('30');
  await expect(levelOf(page, sku(10))).toHaveText('50');
});

test('at 390×844: the till with 400 products keeps its layout; a tab, a search and a scan ring up a sale; paid; the stock page shows it taken off', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToTill(page, app.url, OWNER);
  await expect(grid(page)).toHaveCount(DEMO + 400);
  await meetsLayoutRules(page);

  // A category tab: Household, and its last torch.
  await page.getByRole('tab', { name: 'Household' }).click();
  await expect(page.getByRole('tab', { name: 'Household' })).toHaveAttribute('aria-selected', 'true');
  await expect(grid(page)).toHaveCount(inCategory('Household'));
  await expect(add(page, 'Oat Milk Litre')).toHaveCount(0);
  await add(page, 'Last Torch').click();
  await expect(cartLine(page, 'Last Torch')).toHaveCount(1);
  await page.getByRole('tab', { name: 'All' }).click();

  // The search box, as you type; Enter adds the first match.
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.fill('oat milk');
  await expect(grid(page)).toHaveCount(1);
  await search.press('Enter');
  await expect(cartLine(page, 'Oat Milk Litre')).toHaveCount(1);
  await expect(search).toHaveValue('');

  // The scanner's burst, twice, with the focus off any text field.
  await page.getByRole('heading', { name: /^Cart/ }).click();
  await scan(page, product(200).barcode);
  await expect(cartLine(page, 'Sea Salt Crisps')).toHaveCount(1);
  await scan(page, product(200).barcode);
  await expect(page.getByLabel('Sea Salt Crisps count')).toHaveText('2');
  await expect(page.getByTestId('cart-line')).toHaveCount(3);
  await meetsLayoutRules(page);

  // 8.5 (torch) + 2.5 (oat milk) + 2 × 3.5 (crisps)
  await chargeAndPay(page, app.url, '18.00');
  const office = await expectStock(page, app.url, { [sku(7)]: '0', [sku(100)]: '29', [sku(200)]: '10', [sku(300)]: '8' });
  await expect(office.getByTestId(`stock-row-${sku(7)}`)).toContainText('Out of stock');
});

test('at 1024×768: the same with other products; the stock page shows them taken off', async ({ page, app }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, OWNER);
  await expect(grid(page)).toHaveCount(DEMO + 400);
  await meetsLayoutRules(page);
  expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), 'the page does not scroll').toBe(true);

  await page.getByRole('tab', { name: 'Drinks' }).click();
  await expect(grid(page)).toHaveCount(inCategory('Drinks'));
  await add(page, 'Jasmine Tea Tin').click();
  await add(page, 'Jasmine Tea Tin').click();
  await expect(page.getByLabel('Jasmine Tea Tin count')).toHaveText('2');
  await page.getByRole('tab', { name: 'All' }).click();

  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.fill('sourdough');
  await expect(grid(page)).toHaveCount(1);
  await search.press('Enter');
  await expect(cartLine(page, 'Rye Sourdough')).toHaveCount(1);

  // A scan with the focus on a product button adds the scanned product, not the focused one.
  await add(page, 'Fresh Bread 0').focus();
  await scan(page, product(302).barcode);
  await expect(cartLine(page, 'Battery Pack')).toHaveCount(1);
  await expect(cartLine(page, 'Fresh Bread 0')).toHaveCount(0);
  await expect(page.getByTestId('cart-line')).toHaveCount(3);
  await meetsLayoutRules(page);

  // 2 × 4.5 (tea) + 5.5 (sourdough) + 6.5 (batteries)
  await chargeAndPay(page, app.url, '21.00');
  await expectStock(page, app.url, { [sku(300)]: '6', [sku(301)]: '14', [sku(302)]: '24', [sku(7)]: '0', [sku(200)]: '10' });
});

test('the sold-out product shows "Out of stock" on the till, still sells, and its stock goes negative', async ({ page, app }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToTill(page, app.url, OWNER);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('last torch');
  await expect(grid(page)).toHaveCount(1);
  await expect(add(page, 'Last Torch')).toContainText('Out of stock');
  await add(page, 'Last Torch').click();
  await expect(cartLine(page, 'Last Torch')).toHaveCount(1);
  await chargeAndPay(page, app.url, '8.50');
  const office = await expectStock(page, app.url, { [sku(7)]: '-1' });
  await expect(office.getByTestId(`stock-row-${sku(7)}`)).toContainText('Out of stock');
  // Low stock first, the lowest first: the oversold torch heads the list.
  await expect(office.locator('tbody tr[data-testid^="stock-row-"]').first()).toHaveAttribute('data-testid', `stock-row-${sku(7)}`);
});
