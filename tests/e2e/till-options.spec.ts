// The till's options dialog (docs/catalog.md#options) in real Chromium: tapping a product with
// option groups opens a modal named after it, a fieldset per group (radios where max is 1,
// checkboxes otherwise), Add to sale enabled once every group's min is met; the cart line shows
// the options, the same product with other options is another line, the same options add to it;
// Charge sends the options and the server prices the lines (201). Axe finds nothing serious in
// the open dialog. The receipt and the checkout page show each line's options.
import { expect } from '@playwright/test';
import { signInToTill } from './fixtures';
import { addProduct, sharedShopTest } from './shared-shop';
import { testXpub } from '../helpers/keys';
import { cartLine } from './till-catalog-helpers';
import { axe, report } from './axe-check';

const ADMIN = { email: 'owner@options.test', password: 'counter options e2e password' };
const GROUPS = [
  {
    name: 'Milk',
    min: 0,
    max: 1,
    options: [
      { name: 'Oat', price: '5' },
      { name: 'Soy', price: '5' },
    ],
  },
  {
    name: 'Extras',
    min: 0,
    max: 2,
    options: [
      { name: 'Extra shot', price: '7' },
      { name: 'Syrup', price: '3' },
      { name: 'Cream', price: '2' },
    ],
  },
  {
    name: 'Size',
    min: 1,
    max: 1,
    options: [
      { name: 'Small', price: '0' },
      { name: 'Large', price: '6' },
    ],
  },
];

// A store of its own on the worker's shared app (tests/e2e/shared-shop.ts), its latte added
// through the back office's product route as a manager adds one.
const test = sharedShopTest({ owner: ADMIN, xpub: testXpub(45), name: 'Options Café' }, async (app, shop) => {
  await addProduct(app, shop, { sku: 'LATTE', name: 'Latte', price: '30', option_groups: GROUPS });
});

test('a latte with Oat, Extra shot and Large: the options dialog, the cart lines and the charge', async ({ page, app }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, ADMIN);

  await page.getByRole('button', { name: /^Add Latte/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Latte' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('group')).toHaveCount(3);
  const milk = dialog.getByRole('group', { name: /Milk/ });
  await expect(milk.getByRole('radio')).toHaveCount(3); // None, Oat, Soy
  await expect(dialog.getByRole('group', { name: /Extras/ }).getByRole('checkbox')).toHaveCount(3);
  const add = dialog.getByRole('button', { name: 'Add to sale' });
  await expect(add).toBeDisabled(); // Size needs one
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    const found = await axe(page, `options dialog (${theme})`, theme);
    expect(found, report(found)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await milk.getByRole('radio', { name: 'Oat' }).check();
  const extras = dialog.getByRole('group', { name: /Extras/ });
  await extras.getByRole('checkbox', { name: 'Extra shot' }).check();
  await extras.getByRole('checkbox', { name: 'Syrup' }).check();
  await expect(extras.getByRole('checkbox', { name: 'Cream' })).toBeDisabled(); // max 2
  await extras.getByRole('checkbox', { name: 'Syrup' }).uncheck();
  await expect(add).toBeDisabled();
  await dialog.getByRole('group', { name: /Size/ }).getByRole('radio', { name: 'Large' }).check();
  await expect(add).toBeEnabled();
  await add.click();
  await expect(dialog).toBeHidden();
  await expect(cartLine(page, 'Latte')).toHaveCount(1);
  await expect(cartLine(page, 'Latte').getByTestId('cart-line-options')).toHaveText('Oat, Extra shot, Large');

  // Other options: another line. The same options again: the same line, two of them.
  await page.getByRole('button', { name: /^Add Latte/ }).click();
  await page.getByRole('dialog', { name: 'Latte' }).getByRole('radio', { name: 'Small' }).check();
  await page.getByRole('dialog', { name: 'Latte' }).getByRole('button', { name: 'Add to sale' }).click();
  await expect(cartLine(page, 'Latte')).toHaveCount(2);
  await page.getByRole('button', { name: /^Add Latte/ }).click();
  const again = page.getByRole('dialog', { name: 'Latte' });
  await again.getByRole('radio', { name: 'Oat' }).check();
  await again.getByRole('checkbox', { name: 'Extra shot' }).check();
  await again.getByRole('radio', { name: 'Large' }).check();
  await again.getByRole('button', { name: 'Add to sale' }).click();
  await expect(cartLine(page, 'Latte')).toHaveCount(2);
  await expect(page.getByRole('button', { name: /^Add Latte/ })).toContainText('3'); // the grid's badge counts every line
  // Cancel adds nothing.
  await page.getByRole('button', { name: /^Add Latte/ }).click();
  await page.getByRole('dialog', { name: 'Latte' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog', { name: 'Latte' })).toHaveCount(0);

  // 2 × (30 + 5 + 7 + 6) + 30 = 126 DOGE; the server prices the option lines from the catalog.
  const created = page.waitForResponse((r) => r.url().endsWith('/api/v1/payments') && r.request().method() === 'POST');
  await page.getByRole('button', { name: /^Charge/ }).click();
  const res = await created;
  expect(res.status()).toBe(201);
  const sent = res.request().postDataJSON() as { items: { id: string; options?: string[]; count: number }[] };
  expect(sent.items.map((i) => [i.id, i.count, i.options])).toEqual([
    ['LATTE', 2, ['Oat', 'Extra shot', 'Large']],
    ['LATTE', 1, ['Small']],
  ]);
  const body = await res.json();
  expect(body.total).toBe('126');
  expect(body.payment.items.map((i: { desc: string }) => i.desc)).toEqual(['Oat, Extra shot, Large', 'Small']);

  // The options on the receipt and on the customer's checkout page, under each line's name.
  await page.goto(`${app.url}/pos/receipt/${body.id}`);
  await expect(page.getByTestId('receipt-line-options')).toHaveText(['Oat, Extra shot, Large', 'Small']);
  await page.goto(body.checkout_url);
  await expect(page.getByTestId('checkout-line-options')).toHaveText(['Oat, Extra shot, Large', 'Small']);
});
