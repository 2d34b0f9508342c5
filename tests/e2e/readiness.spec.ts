// Readiness in real Chromium (docs/operations.md#readiness): a devnet store started without a receiving
// wallet is not ready. The back office opens on the first-run checklist (the wallet unticked,
// with a link to Settings; the chain items ticked); the till shows the cart but keeps Charge
// off with a cashier's explanation, and no payment is made. Once the owner sets a wallet, the
// till unlocks by itself (no reload) and charges, and the back office shows the overview.
import { expect, type Page } from '@playwright/test';
import { appTest } from './fixtures';
import { testXpub } from '../helpers/keys';
import { devnetAppEnv, type AppServer } from '../helpers/app-server';
import { until } from '../helpers/wait';

const OWNER = { email: 'owner@ready.test', password: 'readiness e2e password' };
const TPUB = testXpub(5);

const test = appTest(
  devnetAppEnv({
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
  }),
  async (app) => {
    // Wait for the chain worker's first report, so the only problem left is the wallet.
    const h = await until(
      async () => (await fetch(`${app.url}/api/health`)).json(),
      (b) => b.chain?.synced === true,
    );
    expect(h.problems.map((p: { code: string }) => p.code)).toEqual(['no_wallet']);
  },
);

async function signIn(page: Page, app: AppServer, next: string) {
  await page.goto(`${app.url}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === next);
}

test('not ready: the back office shows the checklist, the till refuses to charge; a wallet unlocks both by themselves', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, app, '/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Get your store ready' })).toBeVisible();
  const checklist = page.getByRole('region', { name: 'Before the first sale' });
  await expect(checklist.getByRole('listitem')).toHaveCount(4); // wallet, network, sync, database (no PUBLIC_URL item off mainnet)
  const wallet = checklist.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Receiving wallet set up/ }) });
  await expect(wallet.getByRole('heading')).toContainText('(to do)');
  await expect(wallet).toContainText('No receiving wallet is set up');
  await expect(wallet.getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '/admin/settings');
  await expect(checklist.getByRole('heading', { name: /Connected to the Dogecoin network \(done\)/ })).toBeVisible();
  await expect(checklist.getByRole('heading', { name: /Blockchain caught up \(done\)/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent invoices' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/backoffice-checklist.png', fullPage: true });

  // The till: the cart works, Charge does not, and says why in a cashier's words.
  await page.goto(`${app.url}/pos`);
  await page.getByRole('button', { name: 'Add Coffee' }).click();
  await expect(page.getByTestId('cart-total')).not.toHaveText('Ð 0.00');
  const notice = page.getByTestId('till-not-ready');
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toHaveText("Counter can't take payments yet: no receiving wallet is set up. Ask the owner.");
  const charge = page.getByRole('button', { name: /^Charge Ð/ });
  await expect(charge).toBeDisabled();
  await expect(charge).toHaveAttribute('aria-describedby', 'till-not-ready');
  await charge.click({ force: true }); // a tap on the disabled button does nothing
  await expect(page.getByRole('img', { name: 'Payment QR code' })).toHaveCount(0);
  // The server refuses the till's session too, even when asked directly.
  const me = await (await page.request.get(`${app.url}/api/auth/me`)).json();
  const direct = await page.request.post(`${app.url}/api/v1/payments`, {
    headers: { 'X-CSRF-Token': me.csrf_token, 'Content-Type': 'application/json' },
    data: { items: [{ type: 'item', id: 'x', name: 'X', count: 1, unit: '1' }] },
  });
  expect(direct.status()).toBe(503);
  expect((await direct.json()).error).toBe('not_ready');
  expect((await (await page.request.get(`${app.url}/api/v1/payments`)).json()).payments).toHaveLength(0);
  await page.screenshot({ path: 'test-results/screenshots/pos-not-ready.png' });

  // The owner sets the receiving wallet; the till unlocks within its re-check, without a reload.
  const saved = await page.request.patch(`${app.url}/api/admin/settings`, {
    headers: { 'X-CSRF-Token': me.csrf_token, 'Content-Type': 'application/json' },
    data: { store_xpub: TPUB },
  });
  expect(saved.status()).toBe(200);
  await expect(notice).toHaveCount(0, { timeout: 20_000 });
  await expect(charge).toBeEnabled();
  await charge.click();
  await expect(page.getByRole('img', { name: 'Payment QR code' })).toBeVisible();
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-state', 'waiting');

  // And the back office now opens on the overview.
  await page.goto(`${app.url}/admin`);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Before the first sale' })).toHaveCount(0);
});
