// Tips on the customer's display (docs/counter.md#tips-on-the-customers-display) in real Chromium,
// a till and a paired display in separate contexts, on the devnet chain: Charge makes the till
// wait ("Waiting for the customer's tip", Skip tip) while the display offers No tip, the store's
// three percentages with their amounts, and Custom; the customer taps 15 %, and the payment is
// created with a donation line named "Tip", its QR code on both screens. Skip tip charges without
// asking further; a custom amount over the sale is refused on the display, one within it taken,
// and the sale takes no change while the customer chooses.
// Axe finds nothing serious on the display's tip screen, light and dark.
import { expect } from '@playwright/test';
import { signInToTill, tillHydrated, registerTill } from './fixtures';
import { patchStoreSettings } from '../helpers/hosted-stores';
import { addProduct, sharedShopTest } from './shared-shop';
import { axe, report } from './axe-check';
import { testXpub } from '../helpers/keys';

const OWNER = { email: 'owner@tip-e2e.test', password: 'counter tip e2e password' };

// A store of this file's own on the worker's shared devnet app (tests/e2e/shared-shop.ts), with
// tips on, selling a Latte at Ð 20.
const test = sharedShopTest({ owner: OWNER, xpub: testXpub(49), name: 'Tip Café' }, async (app, shop) => {
  await patchStoreSettings(app.url, shop.owner, { tips_enabled: true });
  await addProduct(app, shop, { sku: 'LATTE', name: 'Latte', price: '20' });
});

test('the customer tips 15 % on the display; the payment carries it as a Tip; Skip tip charges without; a custom tip, the sale unchanged meanwhile', async ({
  app,
  browser,
}) => {
  test.setTimeout(180_000);
  const tillCtx = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const till = await tillCtx.newPage();
  await signInToTill(till, app.url, OWNER);
  await registerTill(till, 'Front counter');
  await tillHydrated(till);
  await expect(till.getByTestId('till-not-ready')).toHaveCount(0, { timeout: 30_000 });

  await till.getByRole('button', { name: 'Customer display' }).click();
  const pairing = till.getByRole('dialog', { name: 'Pair a customer display' });
  const code = (await pairing.getByTestId('pairing-code').textContent())!;
  await pairing.getByRole('button', { name: 'Close' }).click();
  const displayCtx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const display = await displayCtx.newPage();
  await display.goto(app.url + '/display');
  await display.getByLabel('Pairing code').fill(code);
  await display.getByRole('button', { name: 'Pair' }).click();
  await expect(display.getByTestId('display-welcome')).toBeVisible();

  // Charge: the till waits, the display asks.
  await till.getByRole('button', { name: 'Add Latte' }).click();
  await expect(display.getByTestId('display-total')).toHaveText('Ð 20.00');
  await till.getByRole('button', { name: /^Charge/ }).click();
  await expect(till.getByTestId('tip-waiting')).toContainText("Waiting for the customer's tip");
  await expect(till.getByRole('button', { name: 'Skip tip' })).toBeVisible();
  await expect(display.getByRole('heading', { name: 'Add a tip?' })).toBeVisible();
  await expect(display.getByRole('button', { name: 'No tip' })).toBeVisible();
  await expect(display.getByRole('button', { name: '10% Ð 2.00' })).toBeVisible();
  await expect(display.getByRole('button', { name: '15% Ð 3.00' })).toBeVisible();
  await expect(display.getByRole('button', { name: '20% Ð 4.00' })).toBeVisible();
  await display.getByRole('button', { name: 'Custom' }).click();
  await expect(display.getByLabel('Tip in DOGE')).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await display.emulateMedia({ colorScheme: theme });
    const found = await axe(display, `display tip screen (${theme})`, theme);
    expect(found, report(found)).toEqual([]);
  }
  await display.emulateMedia({ colorScheme: 'light' });

  const created = till.waitForResponse((r) => r.url().endsWith('/api/v1/payments') && r.request().method() === 'POST');
  await display.getByRole('button', { name: '15% Ð 3.00' }).click();
  const res = await created;
  expect(res.status()).toBe(201);
  const body = await res.json();
  expect(body.total).toBe('23');
  expect(body.payment.items).toContainEqual(expect.objectContaining({ type: 'donation', name: 'Tip', unit: '3' }));
  // The QR code on both screens.
  await expect(till.getByRole('img', { name: 'Payment QR code' })).toBeVisible();
  await expect(display.getByTestId('display-qr')).toBeVisible();
  await expect(display.getByTestId('display-amount')).toHaveText('Ð 23.00');

  // The next sale: Skip tip charges the sale as it is, and the display leaves its tip screen.
  await till.getByRole('button', { name: 'New sale' }).click();
  await till.getByRole('dialog').getByRole('button', { name: 'Start a new sale' }).click();
  await till.getByRole('button', { name: 'Add Latte' }).click();
  await till.getByRole('button', { name: /^Charge/ }).click();
  await expect(display.getByRole('heading', { name: 'Add a tip?' })).toBeVisible();
  const second = till.waitForResponse((r) => r.url().endsWith('/api/v1/payments') && r.request().method() === 'POST');
  await till.getByRole('button', { name: 'Skip tip' }).click();
  expect((await (await second).json()).total).toBe('20');
  await expect(display.getByTestId('display-qr')).toBeVisible();
  await expect(display.getByRole('heading', { name: 'Add a tip?' })).toHaveCount(0);

  // A third sale, a custom tip: more than the sale is refused on the display, said plainly, and
  // the till keeps waiting; Ð 2.50 goes through as the Tip line.
  await till.getByRole('button', { name: 'New sale' }).click();
  await till.getByRole('dialog').getByRole('button', { name: 'Start a new sale' }).click();
  await till.getByRole('button', { name: 'Add Latte' }).click();
  await till.getByRole('button', { name: /^Charge/ }).click();
  await display.getByRole('button', { name: 'Custom' }).click();
  await display.getByLabel('Tip in DOGE').fill('25');
  await display.getByRole('button', { name: 'Add tip' }).click();
  await expect(display.getByRole('alert').filter({ hasText: 'cannot be added' })).toBeVisible();
  await expect(till.getByTestId('tip-waiting')).toBeVisible();
  // Meanwhile the sale stays as the customer sees it: a tap on the product adds nothing.
  const product = (await till.locator('button', { hasText: 'Latte' }).first().boundingBox())!;
  await till.mouse.click(product.x + product.width / 2, product.y + product.height / 2);
  const third = till.waitForResponse((r) => r.url().endsWith('/api/v1/payments') && r.request().method() === 'POST');
  await display.getByLabel('Tip in DOGE').fill('2.50');
  await display.getByRole('button', { name: 'Add tip' }).click();
  const custom = await (await third).json();
  expect(custom.total).toBe('22.5'); // one latte: the tap during the wait added none
  expect(custom.payment.items.filter((i: { type: string }) => i.type === 'item')).toEqual([expect.objectContaining({ count: 1 })]);
  expect(custom.payment.items).toContainEqual(expect.objectContaining({ type: 'donation', name: 'Tip', unit: '2.5' }));
  await expect(display.getByTestId('display-amount')).toHaveText('Ð 22.50');
  await displayCtx.close();
  await tillCtx.close();
});
