// The demo end to end in real Chromium: a sale is created through the vendor API (the cashier
// screen joins later), its URI is pasted into /demo/wallet, the demo wallet pays it with the
// SDK, and the devnet chain's own timer mines it to confirmed.
import { randomBytes } from 'node:crypto';
import { expect } from '@playwright/test';
import { fileScopedTest } from './fixtures';
import { startApp, type AppServer } from '../helpers/app-server';
import { testXpub } from '../helpers/keys';

const API_KEY = 'e2e-demo-key-' + randomBytes(12).toString('hex');
const xpub = testXpub(13);

const test = fileScopedTest(
  ['demo'],
  async (onStop) => {
    const demo = await startApp({
      DOGE_NETWORK: 'regtest',
      CHAIN_BACKEND: 'devnet',
      DEVNET_BLOCK_SECONDS: '3',
      STORE_XPUB: xpub,
      BOOTSTRAP_API_KEY: API_KEY,
    });
    onStop(() => demo.stop());
    return { demo };
  },
  { log: (v) => v.demo },
);

async function createPayment(app: AppServer, body: unknown) {
  const r = await fetch(`${app.url}/api/v1/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(201);
  return r.json();
}

test('the demo wallet pays a pasted URI and the payment turns confirmed', async ({ page, demo }) => {
  const p = await createPayment(demo, {
    items: [
      { type: 'item', id: 'DEMO-COFFEE', name: 'Coffee', count: 2, unit: '12.5' },
      { type: 'signing', id: 'stamp', name: 'Loyalty stamp' },
    ],
    outputs: [{ type: 'data', data: '68656c6c6f' }],
    order_reference: 'A073',
  });
  await page.goto(`${demo.url}/demo/wallet`);
  await expect(page.getByTestId('wallet-balance')).toContainText('Ð');
  await page.getByLabel('Payment URI').fill(p.uri);
  await page.getByRole('button', { name: 'Open payment' }).click();

  await expect(page.getByTestId('payment-total')).toHaveText('Ð 25');
  await expect(page.getByText('Order A073')).toBeVisible();
  await expect(page.getByText('Signing: Loyalty stamp')).toBeVisible();
  await expect(page.getByRole('note')).toContainText('signs data');
  await page.getByRole('button', { name: 'Pay Ð 25' }).click();

  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-status', /accepted|confirmed/);
  await expect(status).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 });
  await expect(status).toHaveText('Confirmed ✓');

  const vendor = await (await fetch(`${demo.url}/api/v1/payments/${p.id}`, { headers: { Authorization: `Bearer ${API_KEY}` } })).json();
  expect(vendor.status).toBe('confirmed');
  expect(vendor.confirmed).toBeGreaterThanOrEqual(1);
  await expect(page.getByText(`tx ${vendor.txid}`)).toBeVisible();
});

test('the demo wallet refuses a linked URI whose h does not match the relay key', async ({ page, demo }) => {
  const p = await createPayment(demo, { items: [{ type: 'item', id: 'T', name: 'Tea', count: 1, unit: '3' }] });
  // opened through a link (?uri=), as the cashier screen can offer
  const forged = p.connect_uri.replace(/h=[^&]+$/, 'h=AAAAAAAAAAAAAAAAAAAA');
  await page.goto(`${demo.url}/demo/wallet?uri=${encodeURIComponent(forged)}`);
  await expect(page.getByLabel('Payment URI')).toHaveValue(forged);
  await expect(page.getByTestId('wallet-error')).toContainText('bad_hash');
  await expect(page.getByTestId('payment-total')).toHaveCount(0);
});
