// An underpaid sale on the till (docs/using-counter.md#the-till-pos, docs/api.md#payments-from-any-wallet), in real Chromium on
// the in-process devnet chain: an ordinary wallet (the demo wallet, through /demo/api/send)
// pays part of the sale; the till says what is paid and what is missing and shows a plain
// `dogecoin:<address>?amount=<amount_due>` QR code for the rest, updating live as more arrives,
// never "paid"; the rest makes it accepted.
import { expect } from '@playwright/test';
import { signInToTill } from './fixtures';
import { testXpub } from '../helpers/keys';
import { sharedShopTest } from './shared-shop';

const OWNER = { email: 'owner@short.test', password: 'counter underpaid e2e password' };

// A store of this file's own (tips off, as a new store starts) on the worker's shared devnet app
// (tests/e2e/shared-shop.ts).
const test = sharedShopTest({ owner: OWNER, xpub: testXpub(18), name: 'Short Shop' });

async function send(url: string, address: string, amount: string) {
  const r = await fetch(`${url}/demo/api/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ address, amount }),
  });
  expect(r.status, await r.clone().text()).toBe(200);
}

test('paid in part: what is missing and a dogecoin: QR code for the rest, live; the rest makes it accepted', async ({ page, app }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, OWNER);
  await page.getByRole('tab', { name: 'Keypad' }).click();
  for (const k of ['1', '2', '.', '5']) await page.getByRole('button', { name: k, exact: true }).click();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('button', { name: 'Charge Ð 12.50' }).click();
  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await page.getByRole('radio', { name: 'dogecoin: URI' }).click();
  const uri = await page.getByTestId('payment-uri').innerText();
  const address = /^dogecoin:([^?]+)\?/.exec(uri)![1];

  // 5 of 12.5 arrive from an ordinary wallet.
  await send(app.url, address, '5');
  await expect(status).toHaveAttribute('data-exception', 'underpaid', { timeout: 20_000 });
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(status).toContainText('Underpaid');
  await expect(page.getByTestId('underpaid')).toHaveText('Paid Ð 5.00 of Ð 12.50 — Ð 7.50 still missing');
  await expect(page.getByRole('heading', { name: 'Scan to pay the rest' })).toBeVisible();
  const restQr = page.getByRole('img', { name: 'QR code for the missing Ð 7.50' });
  await expect(restQr).toHaveAttribute('data-uri', `dogecoin:${address}?amount=7.5`);
  await expect(page.getByTestId('payment-uri')).toHaveText(`dogecoin:${address}?amount=7.5`);
  await expect(page.getByTestId('hand-over')).toHaveCount(0);
  await expect(page.getByText('Paid ✓')).toHaveCount(0);

  // More arrives, still short: the screen follows.
  await send(app.url, address, '2.5');
  await expect(page.getByTestId('underpaid')).toHaveText('Paid Ð 7.50 of Ð 12.50 — Ð 5.00 still missing', { timeout: 20_000 });
  await expect(page.getByRole('img', { name: 'QR code for the missing Ð 5.00' })).toHaveAttribute(
    'data-uri',
    `dogecoin:${address}?amount=5`,
  );

  // The rest: accepted, the short notice gone, still not handed over before confirmation.
  await send(app.url, address, '5');
  await expect(status).toHaveAttribute('data-state', 'accepted', { timeout: 20_000 });
  await expect(page.getByTestId('underpaid')).toHaveCount(0);
  await expect(page.getByTestId('hand-over')).toHaveCount(0);
});
