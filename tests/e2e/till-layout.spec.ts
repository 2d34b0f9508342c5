// "The till never loses a sale" (docs/using-counter.md#the-till-pos) in real Chromium, on the in-process
// devnet chain: the total and Charge stay in the viewport with a long cart and the payment
// screen opens with the whole QR code in view (measured, at 1024×768, 1280×800 and 390×844);
// the live-updates banner and "Status unknown" when the network drops; confirm dialogs before
// leaving a waiting sale; reopening it from today's sales, which follow the server live;
// charging an expired sale again; the keypad back on a plain item; a keyboard-only sale; and a
// sale paid with the demo wallet that says "OK to hand over" only once confirmed, with a sound; and the header: the
// store's name whole, the Menu (keyboard, Escape, a tap outside) holding the rest, nothing off screen.
import { expect, type Page } from '@playwright/test';
import { signInToTill, devnetTest, leaveWaitingSale, paymentIdOf, openTillMenu, reloadWithScriptsHeld, tillHydrated } from './fixtures';
import { expectHeaderFits, expectStoreNameWhole, memberOfTwoStores, menuControls } from './till-header-checks';
import { randomBytes } from 'node:crypto';
import { testXpub } from '../helpers/keys';
import { parseKoinu } from '../../lib/money';

const ADMIN = { email: 'owner@till.test', password: 'counter till e2e password' };
const API_KEY = 'till_' + randomBytes(24).toString('base64url');
const xpub = testXpub(16);
const MIA = { name: 'Mia', email: 'mia@till.test', password: 'counter till e2e password' };
const SECOND_STORE = 'Café Ünicode am Markt';
const NAMES = ['Coffee', 'Tea', 'Juice', 'Water', 'Bagel', 'Muffin', 'Cookie', 'Brownie', 'Salad', 'Soup', 'Toast', 'Wrap'];
const PRODUCTS = NAMES.map((name, i) => ({ id: `p-${i}`, sku: `SKU${i}`, name, price: parseKoinu(String(i + 1) + '.5'), sort: i }));
const SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const test = devnetTest({
  name: 'till',
  xpub,
  owner: ADMIN,
  env: { BOOTSTRAP_API_KEY: API_KEY },
  seed: [
    { sql: `INSERT INTO store (id, name, tips_enabled) VALUES (1, $1, TRUE)`, params: ['Till Café'] },
    ...memberOfTwoStores(MIA, SECOND_STORE),
    ...PRODUCTS.map((p) => ({
      sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived) VALUES ($1, $2, $3, $4, $5, 0, $6, FALSE)',
      params: [p.id, p.sku, p.name, '', p.price.toString(), p.sort],
    })),
  ],
});

/** The element's box lies wholly inside the viewport. */
async function inViewport(page: Page, loc: ReturnType<Page['locator']>, what: string) {
  const b = await loc.boundingBox();
  const vp = page.viewportSize()!;
  expect(b, what).not.toBeNull();
  expect(b!.y, `${what}: top ${b!.y}`).toBeGreaterThanOrEqual(0);
  expect(b!.x, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(b!.y + b!.height, `${what}: bottom ${b!.y + b!.height} > ${vp.height}`).toBeLessThanOrEqual(vp.height + 0.5);
  expect(b!.x + b!.width, `${what}: right`).toBeLessThanOrEqual(vp.width + 0.5);
}

async function ringUp(page: Page, n: number) {
  for (const name of NAMES.slice(0, n)) await page.getByRole('button', { name: `Add ${name}` }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(n);
}

const charge = (page: Page) => page.getByRole('button', { name: /^Charge Ð/ });
const qr = (page: Page) => page.getByRole('img', { name: 'Payment QR code' });
const status = (page: Page) => page.getByTestId('payment-status');

for (const size of SIZES) {
  test(`${size.width}×${size.height}: total and Charge stay in view with 10 lines; the QR code opens wholly in view; New sale asks, then returns to the top`, async ({
    page,
    app,
  }) => {
    await page.setViewportSize(size);
    await signInToTill(page, app.url, ADMIN);
    await ringUp(page, 10);
    // wherever the cashier scrolled to, the total and Charge are on screen
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await inViewport(page, charge(page), 'Charge');
    await inViewport(page, page.getByTestId('cart-total'), 'Total');
    await page.evaluate(() => window.scrollTo(0, 0));
    await inViewport(page, charge(page), 'Charge at the top');
    if (process.env.TILL_SHOTS) await page.screenshot({ path: `test-results/till-sale-${size.width}.png` });
    if (size.width > 760)
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), 'the page does not scroll').toBe(
        true,
      );

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await charge(page).click();
    await expect(qr(page)).toBeVisible();
    await expect(status(page)).toHaveAttribute('data-state', 'waiting');
    await inViewport(page, qr(page), 'QR code');
    if (process.env.TILL_SHOTS) await page.screenshot({ path: `test-results/till-pay-${size.width}.png` });
    await expect(page.getByRole('heading', { name: 'Scan to pay' })).toBeFocused();

    // New sale while waiting asks first; "Stay" keeps the payment
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.getByRole('button', { name: 'New sale' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave this payment?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay on this payment' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(qr(page)).toBeVisible();
    await leaveWaitingSale(page);
    await expect(page.getByTestId('cart-line')).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.getByRole('heading', { name: /^Cart/ })).toBeFocused();
  });
}

test('the header: the Menu holds the rest (keyboard, Escape), nothing runs off at 1024×768 or 390×844, and a member of two stores switches there', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, MIA);
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  const store = page.getByRole('combobox', { name: 'Store' });
  for (const size of [SIZES[0], SIZES[2]]) {
    await page.setViewportSize(size);
    await expectStoreNameWhole(page, 'Till Café');
    await expectHeaderFits(page, `${size.width} closed`);
    for (const c of menuControls(page, 'Mia')) await expect(c).toBeHidden();
    // by keyboard: Enter opens it, Tab goes into it, Escape closes it and gives the focus back
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    for (const c of [...menuControls(page, 'Mia'), store]) await expect(c).toBeVisible();
    await expectHeaderFits(page, `${size.width} open`);
    await page.keyboard.press('Tab');
    expect(await page.getByTestId('till-menu').evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
    await expect(page.getByRole('link', { name: 'My shift' })).toBeHidden();
    await inViewport(page, charge(page), `${size.width}: Charge beside the header`);
  }
  // a tap outside closes it too; the Store select switches the till to the other store, and back
  await page.setViewportSize(SIZES[0]);
  await menu.click();
  await page.getByRole('heading', { name: /^Cart/ }).click();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(store).toHaveValue('1');
  await store.selectOption({ label: SECOND_STORE });
  await expectStoreNameWhole(page, SECOND_STORE);
  await expectHeaderFits(page, 'the second store');
  await menu.click();
  await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: 'Till Café' });
  await expectStoreNameWhole(page, 'Till Café');
  await tillHydrated(page);
});

test('live updates drop: a full-width alert within 5 s on the payment and sale screens, and "Status unknown" instead of waiting', async ({
  page,
  app,
  context,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, ADMIN);
  await ringUp(page, 2);
  await charge(page).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByLabel('Time left')).toBeVisible();

  await context.setOffline(true);
  const banner = page.getByTestId('live-banner');
  await expect(banner).toBeVisible({ timeout: 5_000 });
  await expect(banner).toHaveAttribute('role', 'alert');
  const b = (await banner.boundingBox())!;
  expect(b.height).toBeGreaterThanOrEqual(40);
  expect(b.width).toBeGreaterThanOrEqual(1024 - 1);
  await expect(status(page)).toHaveAttribute('data-state', 'unknown');
  await expect(status(page)).toContainText('Status unknown');
  await expect(page.getByLabel('Time left')).toHaveCount(0);
  await expect(page.getByText('Waiting for payment')).toHaveCount(0);

  await context.setOffline(false);
  await expect(banner).toHaveCount(0, { timeout: 15_000 });
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');

  // the sale screen too
  await leaveWaitingSale(page);
  await context.setOffline(true);
  await expect(page.getByTestId('live-banner')).toBeVisible({ timeout: 5_000 });
  await context.setOffline(false);
  await expect(page.getByTestId('live-banner')).toHaveCount(0, { timeout: 15_000 });
});

test("a waiting sale is reopened from today's sales, which follow the server live; Cancel asks first", async ({ page, app }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInToTill(page, app.url, ADMIN);
  await ringUp(page, 3);
  await charge(page).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  const uri = await page.getByTestId('payment-uri').innerText();
  const id = paymentIdOf(uri);
  await leaveWaitingSale(page);

  const row = page.locator(`[data-testid=recent-sale][data-id="${id}"]`);
  await expect(row).toHaveAttribute('data-state', 'unpaid');
  await row.getByRole('button', { name: /^Reopen/ }).click();
  await expect(qr(page)).toBeVisible();
  await expect(page.getByTestId('payment-uri')).toHaveText(uri);
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');

  // Cancel asks; "Keep waiting" keeps it, "Cancel payment" cancels it
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this payment?' });
  await dialog.getByRole('button', { name: 'Keep waiting' }).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  await leaveWaitingSale(page);
  await expect(row).toHaveAttribute('data-state', 'unpaid');

  // cancelled elsewhere (the vendor API): today's sales show it within 10 s, without a reload
  const r = await fetch(`${app.url}/api/v1/payments/${id}/cancel`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(r.status).toBe(200);
  await expect(row).toHaveAttribute('data-state', 'cancelled', { timeout: 10_000 });
  await expect(row.getByRole('button', { name: /^Reopen/ })).toHaveCount(0);

  // and through the till
  await ringUp(page, 1);
  await charge(page).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.getByRole('dialog', { name: 'Cancel this payment?' }).getByRole('button', { name: 'Cancel payment' }).click();
  await expect(status(page)).toHaveAttribute('data-state', 'cancelled');
});

test('an expired sale is charged again with the same lines', async ({ page, app }) => {
  await page.clock.install();
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, ADMIN);
  await ringUp(page, 3);
  await charge(page).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  const first = await page.getByTestId('payment-uri').innerText();
  const total = await page.getByTestId('payment-total').innerText();
  await page.clock.fastForward('16:00'); // past the store's 15-minute timeout
  await expect(status(page)).toHaveAttribute('data-state', 'expired');
  await page.clock.setSystemTime(Date.now()); // back in step with the server for the new payment
  await page.getByRole('button', { name: 'Charge again' }).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('payment-uri')).not.toHaveText(first);
  await expect(page.getByTestId('payment-total')).toHaveText(total);
  for (const name of NAMES.slice(0, 3))
    await expect(page.getByRole('region', { name: 'Payment', exact: true }).getByText(name, { exact: true })).toBeVisible();
});

test('the keypad returns to a plain item after a tip; keypad items are named and taxed; a decimal comma is a decimal', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, ADMIN);
  await page.getByRole('tab', { name: 'Keypad' }).click();
  await page.getByRole('radio', { name: 'Tip' }).click();
  await page.getByRole('button', { name: '2', exact: true }).click();
  await page.getByRole('button', { name: 'Set tip' }).click();
  await expect(page.getByRole('radio', { name: 'Custom item' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('button', { name: 'Add to cart' })).toBeVisible();

  await page.getByLabel('Item name').fill('Gift wrap');
  await page.getByLabel('Tax %').fill('10');
  await page.getByRole('button', { name: '5', exact: true }).click();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByTestId('cart-line')).toContainText('Gift wrap');
  await expect(page.getByTestId('cart-line')).toContainText('tax 10%');
  await expect(page.getByTestId('cart-tax')).toHaveText('Ð 0.50');
  await expect(page.getByLabel('Item name')).toHaveValue('');

  await page.getByRole('heading', { name: /^Cart/ }).click();
  await page.keyboard.type('2,5');
  await expect(page.getByLabel('Keypad amount')).toHaveText('Ð 2.5');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cart-line')).toHaveCount(2);
  await expect(page.getByTestId('cart-total')).toHaveText('Ð 10.00'); // 5 + 0.5 tax + 2.5 + 2 tip
});

test('a keyboard-only sale: type the amount, Enter, Tab to Charge, Enter reaches the QR code; the tabs follow the arrow keys', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInToTill(page, app.url, ADMIN);
  const products = page.getByRole('tab', { name: 'Products' });
  await expect(products).toHaveAttribute('aria-selected', 'true');
  await products.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Keypad' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Keypad' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(products).toHaveAttribute('aria-selected', 'true');

  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.type('12.5');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-total')).toHaveText('Ð 12.50');
  let onCharge = false;
  for (let i = 0; i < 80 && !onCharge; i++) {
    await page.keyboard.press('Tab');
    onCharge = await page.evaluate(() => /^Charge/.test(document.activeElement?.textContent ?? ''));
  }
  expect(onCharge, 'Tab reaches Charge').toBe(true);
  await page.keyboard.press('Enter');
  await expect(qr(page)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Scan to pay' })).toBeFocused();
  await expect(page.getByTestId('payment-total')).toHaveText('Ð 12.50');
});

test('paid with the demo wallet: "OK to hand over" only once confirmed, with a sound that can be turned off', async ({ page, app }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, ADMIN);
  await openTillMenu(page);
  await expect(page.getByRole('button', { name: 'Sound on' })).toHaveAttribute('aria-pressed', 'true');
  await ringUp(page, 1);
  await charge(page).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  const uri = await page.getByTestId('payment-uri').innerText();
  const phone = await page.context().newPage();
  await phone.goto(`${app.url}/demo/wallet`);
  await phone.getByLabel('Payment URI').fill(uri);
  await phone.getByRole('button', { name: 'Open payment' }).click();
  await phone.getByRole('button', { name: /^Pay Ð/ }).click();
  await expect(status(page)).toHaveAttribute('data-state', 'accepted', { timeout: 30_000 });
  await expect(page.getByTestId('hand-over')).toHaveCount(0);
  const mined = await fetch(`${app.url}/demo/api/mine`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"blocks":1}',
  });
  expect(mined.status).toBe(200);
  await expect(status(page)).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
  await expect(page.getByTestId('hand-over')).toHaveText('OK to hand over');
  expect(await page.evaluate(() => (window as unknown as { __tillSounds?: number }).__tillSounds ?? 0)).toBe(1);
  await phone.close();

  // the switch is kept on this device
  await page.getByRole('button', { name: 'New sale' }).click();
  await openTillMenu(page);
  await page.getByRole('button', { name: 'Sound on' }).click();
  await expect(page.getByRole('button', { name: 'Sound off' })).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  await openTillMenu(page);
  await expect(page.getByRole('button', { name: 'Sound off' })).toBeVisible();
});

test('a tap before the till hydrates is never lost: the sale controls wait, disabled but looking as usual, then take it', async ({
  browser,
  app,
}) => {
  // No service worker: it would serve the till's scripts from its cache, past the route below.
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  try {
    await signInToTill(page, app.url, ADMIN);
    // A slow tablet: the till's HTML is on screen, its scripts are not in yet.
    const release = await reloadWithScriptsHeld(page);
    const add = page.getByRole('button', { name: 'Add Coffee' });
    await expect(add).toBeVisible();
    await expect(page.locator('[data-hydrated]')).toHaveCount(0);
    await expect(add).toBeDisabled();
    // No disabled flash: the usual look at first; still waiting after a second, a slight fade.
    // (The fade is a CSS animation: read at its start and past its end, whatever the machine's speed.)
    const look = await add.evaluate((e) => {
      const [fade] = e.getAnimations();
      fade.pause();
      fade.currentTime = 0;
      const first = getComputedStyle(e).opacity;
      fade.currentTime = 5_000;
      return { first, late: getComputedStyle(e).opacity, cursor: getComputedStyle(e).cursor };
    });
    expect(look).toEqual({ first: '1', late: '0.55', cursor: 'progress' });
    // The tap waits for the till (Playwright clicks only an enabled button), then counts.
    const tap = add.click();
    release();
    await tap;
    await expect(page.getByLabel('Coffee count')).toHaveText('1');
    await expect(page.getByTestId('cart-total')).toHaveText('Ð 1.50');
  } finally {
    await context.close();
  }
});
