// The demo end to end, as the README tells a newcomer to run it: `npm run demo` (scripts/demo.mjs,
// devnet chain, seeded catalog) prints the owner's credentials; the cashier signs in with them
// at /login, builds a cart on /pos from the seeded products and charges; the URI on the payment
// screen is pasted into /demo/wallet in a second tab of the same browser (the customer's phone),
// which pays it with the wallet SDK; a block mined on request turns both screens confirmed. The
// seeded café: category tabs, icons, search, a latte's options, stock badges, and the printed
// cashier unlocking a registered till with her printed PIN.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from '@playwright/test';
import { fileScopedTest, signInToTill, paymentIdOf, registerTill, tillHydrated, openTillMenu } from './fixtures';
import { cartLine, grid } from './till-catalog-helpers';
import { DEMO_CATEGORIES, DEMO_PRODUCTS } from '../../lib/demo/seed-catalog';
import { freePort } from '../helpers/ports';

const ROOT = resolve(__dirname, '../..');

interface Demo {
  url: string;
  email: string;
  password: string;
  apiKey: string;
  cashier: string;
  pin: string;
  logs: () => string;
}

const test = fileScopedTest(
  ['demo'],
  async (onStop) => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'counter-demo-e2e-'));
    onStop(() => rmSync(dataDir, { recursive: true, force: true }));
    let out = '';
    // Exactly `npm run demo`, on a free port and a throwaway DATA_DIR; blocks only on request.
    const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], {
      cwd: ROOT,
      env: {
        NODE_ENV: 'production',
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEVNET_BLOCK_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const gone = new Promise((r) => child.once('exit', r));
    onStop(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(t);
    });
    child.stdout!.on('data', (d: Buffer) => (out += d));
    child.stderr!.on('data', (d: Buffer) => (out += d));
    const deadline = Date.now() + 120_000;
    while (!/Vendor API key\s+\S+/.test(out)) {
      if (child.exitCode !== null) throw new Error(`npm run demo exited:\n${out}`);
      if (Date.now() > deadline) throw new Error(`npm run demo printed no credentials:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const field = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(out)![1];
    const url = field('Cashier screen').replace(/\/pos$/, '');
    expect(url).toBe(`http://localhost:${port}`);
    const demo: Demo = {
      url, // as printed: the QR code's envelope URL is on this origin
      email: field('Sign in as'),
      password: field('Password'),
      apiKey: field('Vendor API key'),
      cashier: field('Till cashier'),
      pin: field('Till cashier PIN'),
      logs: () => out,
    };
    return { demo };
  },
  { log: (v) => v.demo },
);

test('npm run demo: the cashier charges a cart, the demo wallet pays the pasted URI, the cashier screen turns confirmed', async ({
  page,
  demo,
}) => {
  expect(demo.email).toBe('demo@counter.local');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(`${demo.url}/pos`);
  await expect(page).toHaveURL(/\/login\?next=%2Fpos$/);
  await signInToTill(page, demo.url, demo);

  // The seeded catalog: 2 coffees (12.5 + 10 % tax) and a sticker pack (3.25, no tax).
  await page.getByRole('button', { name: 'Add Coffee' }).click();
  await page.getByRole('button', { name: 'Add Coffee' }).click();
  await page.getByRole('button', { name: 'Add Sticker pack' }).click();
  await expect(page.getByLabel('Coffee count')).toHaveText('2');
  await expect(page.getByTestId('cart-tax')).toHaveText('Ð 2.50');
  await expect(page.getByTestId('cart-total')).toHaveText('Ð 30.75');
  await page.getByRole('button', { name: /^Charge Ð 30.75$/ }).click();
  await expect(page.getByRole('img', { name: 'Payment QR code' })).toBeVisible();
  const cashierStatus = page.getByTestId('payment-status');
  await expect(cashierStatus).toHaveAttribute('data-state', 'waiting');
  const uri = await page.getByTestId('payment-uri').innerText();
  expect(uri).toMatch(/^dogecoin:.*[?&]dc=.*&h=/); // the form every wallet reads, with dc and h
  const id = paymentIdOf(uri);

  // The customer's phone: a second tab of the same browser.
  const phone = await page.context().newPage();
  await phone.goto(`${demo.url}/demo/wallet`);
  await expect(phone.getByTestId('wallet-balance')).toContainText('Ð');
  await phone.getByLabel('Payment URI').fill(uri);
  await phone.getByRole('button', { name: 'Open payment' }).click();
  await expect(phone.getByTestId('payment-total')).toHaveText('Ð 30.75');
  await expect(phone.getByText('Coffee')).toBeVisible();
  await phone.getByRole('button', { name: 'Pay Ð 30.75' }).click();
  const phoneStatus = phone.getByTestId('payment-status');
  await expect(phoneStatus).toHaveAttribute('data-status', 'accepted');

  // The cashier screen follows live: accepted, then confirmed after a block mined on request.
  await expect(cashierStatus).toHaveAttribute('data-state', 'accepted');
  await expect(cashierStatus).toContainText('0 of 1 confirmation');
  const mined = await fetch(`${demo.url}/demo/api/mine`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"blocks":1}',
  });
  expect(mined.status).toBe(200);
  await expect(cashierStatus).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
  await expect(cashierStatus).toContainText('Paid ✓');
  await expect(phoneStatus).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 });

  // The same sale through the vendor API with the printed key: confirmed, with the paid tx.
  const vendor = await (await fetch(`${demo.url}/api/v1/payments/${id}`, { headers: { Authorization: `Bearer ${demo.apiKey}` } })).json();
  expect(vendor).toMatchObject({ status: 'confirmed', total: '30.75', confirmed: 1 });
  await expect(phone.getByText(`tx ${vendor.txid}`)).toBeVisible();
  await expect(page.getByText(vendor.txid)).toBeVisible();
});

test('npm run demo seeds a café: categories, icons, search, options and stock; the printed cashier unlocks a till with her PIN', async ({
  page,
  demo,
}) => {
  expect(demo.cashier).toBe('Ana');
  expect(demo.pin).toMatch(/^\d{6}$/);
  expect(DEMO_PRODUCTS.length).toBeGreaterThanOrEqual(18);
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, demo.url, demo);
  await registerTill(page, 'Front counter');
  await tillHydrated(page);

  const tabs = page.getByRole('tablist', { name: 'Categories' }).getByRole('tab');
  await expect(tabs).toHaveText(['All', ...DEMO_CATEGORIES]);
  await expect(grid(page)).toHaveCount(DEMO_PRODUCTS.length);
  await expect(page.getByRole('button', { name: /^Add Latte/ })).toContainText('🥛');
  await expect(page.getByRole('button', { name: /^Add Banana bread/ })).toContainText('Out of stock');
  await expect(page.getByRole('button', { name: /^Add Blueberry muffin/ })).toContainText('Low stock');
  await tabs.filter({ hasText: 'Bakery' }).click();
  await expect(grid(page)).toHaveCount(DEMO_PRODUCTS.filter((p) => p.category === 'Bakery').length);
  await tabs.first().click();
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.fill('latte');
  await expect(grid(page)).toHaveText([/Latte/, /Chai latte/]);
  await search.fill('');

  // A latte with oat milk and an extra shot: 25 + 3 + 5, and 10 % tax.
  await page.getByRole('button', { name: /^Add Latte/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Latte' });
  await dialog.getByRole('group', { name: /Milk/ }).getByRole('radio', { name: 'Oat' }).check();
  await dialog
    .getByRole('group', { name: /Extras/ })
    .getByRole('checkbox', { name: 'Extra shot' })
    .check();
  await dialog.getByRole('button', { name: 'Add to sale' }).click();
  await expect(cartLine(page, 'Latte').getByTestId('cart-line-options')).toHaveText('Oat, Extra shot');
  await expect(page.getByTestId('cart-total')).toHaveText('Ð 36.30');

  // The printed cashier and PIN open the locked till.
  await page.getByRole('button', { name: 'Lock' }).click();
  await expect(page).toHaveURL(/\/pos\/lock$/);
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
  await page.getByRole('button', { name: demo.cashier }).click();
  await page.getByLabel('PIN').fill(demo.pin);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await openTillMenu(page);
  await expect(page.getByTitle('Signed in')).toHaveText(demo.cashier);
  expect(demo.logs()).not.toContain('could not add the cashier');
});
