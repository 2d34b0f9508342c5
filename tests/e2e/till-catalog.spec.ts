// The till's catalog controls (docs/catalog.md) in real Chromium, at a phone (390×844) and a
// tablet (1024×768): category tabs (arrow keys move between them), the search box (filters as
// you type, Enter adds the first match) and a keyboard-wedge scanner simulated by fast typing
// then Enter, which adds the product by barcode or SKU; an unknown code adds nothing.
import { expect } from '@playwright/test';
import { signInToTill } from './fixtures';
import { cartLine, grid, scan } from './till-catalog-helpers';
import { testXpub } from '../helpers/keys';
import { patchStoreSettings } from '../helpers/hosted-stores';
import { addProduct, sharedShopTest } from './shared-shop';

const ADMIN = { email: 'owner@catalog.test', password: 'counter catalog e2e password' };
// [sku, name, category, barcode, stock, low_stock]
const ROWS: [string, string, string, string | null, number | null, number][] = [
  ['COF', 'Coffee', 'Drinks', '4006381333931', null, 0],
  ['TEA', 'Tea', 'Drinks', null, 0, 0],
  ['JUI', 'Orange juice', 'Drinks', '5000112548167', 2, 5],
  ['BAG', 'Bagel', 'Food', '7622210449283', null, 0],
  ['MUF', 'Blueberry muffin', 'Food', null, null, 0],
  ['STA-PEN-01', 'Pen', 'Stationery', null, null, 0],
];

// A store of its own on the worker's shared app (tests/e2e/shared-shop.ts): its category order
// set and its products added through the back office's routes, as a manager does, in ROWS' order
// and priced Ð 1 to Ð 6.
const test = sharedShopTest({ owner: ADMIN, xpub: testXpub(17), name: 'Catalog Café' }, async (app, shop) => {
  await patchStoreSettings(app.url, shop.owner, { categories: ['Food', 'Drinks'] });
  for (const [i, [sku, name, category, barcode, stock, low]] of ROWS.entries()) {
    await addProduct(app, shop, { sku, name, price: `${i + 1}`, category, stock, low_stock: low, ...(barcode ? { barcode } : {}) });
  }
});

for (const size of [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
]) {
  test(`category tabs, search and a scanner ring up a sale at ${size.width}×${size.height}`, async ({ page, app }) => {
    await page.setViewportSize(size);
    await signInToTill(page, app.url, ADMIN);

    // Tabs: All first, then the store's order, then unlisted categories alphabetically.
    const tabs = page.getByRole('tablist', { name: 'Categories' }).getByRole('tab');
    await expect(tabs).toHaveText(['All', 'Food', 'Drinks', 'Stationery']);
    await expect(page.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
    await expect(grid(page)).toHaveCount(6);
    await page.getByRole('tab', { name: 'Drinks' }).click();
    await expect(grid(page)).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Add Bagel' })).toHaveCount(0);
    // Stock labels: Tea is out, the juice is low; neither blocks the sale.
    await expect(page.getByRole('button', { name: /Tea/ })).toContainText('Out of stock');
    await expect(page.getByRole('button', { name: /Orange juice/ })).toContainText('Low stock');
    await page.getByRole('button', { name: /Tea/ }).click();
    await expect(cartLine(page, 'Tea')).toHaveCount(1);
    // Arrow keys move between the category tabs and select.
    await page.getByRole('tab', { name: 'Drinks' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Stationery' })).toBeFocused();
    await expect(page.getByRole('tab', { name: 'Stationery' })).toHaveAttribute('aria-selected', 'true');
    await expect(grid(page)).toHaveCount(1);
    await page.keyboard.press('Home');
    await expect(page.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');

    // Search by name, as you type; Enter adds the first match.
    const search = page.getByRole('searchbox', { name: 'Search products' });
    await search.fill('muff');
    await expect(grid(page)).toHaveCount(1);
    await expect(grid(page).first()).toContainText('Blueberry muffin');
    await search.press('Enter');
    await expect(cartLine(page, 'Blueberry muffin')).toHaveCount(1);
    await expect(search).toHaveValue('');
    // … and by barcode.
    await search.fill('762221');
    await expect(grid(page)).toHaveCount(1);
    await expect(grid(page).first()).toContainText('Bagel');
    await search.fill('');

    // A scanner: the code typed fast, then Enter, with the focus on the page (not a text field).
    await page.getByRole('heading', { name: /^Cart/ }).click();
    await scan(page, '4006381333931');
    await expect(cartLine(page, 'Coffee')).toHaveCount(1);
    // … again, with the focus on a product button: the scan adds Coffee, not the focused product.
    await page.getByRole('button', { name: 'Add Bagel' }).focus();
    await scan(page, '4006381333931');
    await expect(cartLine(page, 'Coffee')).toContainText('2');
    await expect(cartLine(page, 'Bagel')).toHaveCount(0);
    // … by SKU too.
    await scan(page, 'sta-pen-01'); // a SKU label, in any case
    await expect(cartLine(page, 'Pen')).toHaveCount(1);
    // An unknown code adds nothing and says so; the keypad was not typed on.
    await scan(page, '999000111');
    await expect(page.getByText('No product with code 999000111')).toBeVisible();
    await expect(page.getByTestId('cart-line')).toHaveCount(4);
    await expect(page.getByTestId('cart-total')).toHaveText('Ð 15.00'); // tea 2 + muffin 5 + coffee 2×1 + pen 6

    // The total and Charge stay on screen, whatever the cart holds.
    await expect(page.getByRole('button', { name: /^Charge/ })).toBeInViewport();
  });
}
