// The cashier screen end to end in real Chromium, against the app on a real litecoind -regtest
// node (rpc backend, embedded PGlite): sign in, build a cart with a taxed item, a discount and
// a fee, Charge, check the QR code's URI against the signed envelope, pay with litecoind's
// wallet, and watch the screen go to accepted and then confirmed after a block.
// Set POS_DOCS_SCREENSHOT=1 to also refresh the docs' screenshots from this seeded catalog:
// docs/cashier.png (the till at 1024×768), docs/cashier-phone.png (the same cart on a 390×844
// phone) and docs/cashier-payment.png (the payment screen; its QR code and URI carry the
// payment's random id, the one thing in them that changes from run to run).
import { expect, type Page } from '@playwright/test';
import { fileScopedTest, signInToTill, paymentIdOf, shownPaymentId } from './fixtures';
import { mkdtempSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { seedPglite } from './seed-pglite';
import { testXpub } from '../helpers/keys';
import { parsePaymentUri, verifyPaymentEnvelope, type ConnectPayment } from '../../lib/connect';
import { parseKoinu } from '../../lib/money';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, type Litecoind } from '../helpers/litecoind';
import { startApp, type AppServer } from '../helpers/app-server';
import type { NodeUnspentJson } from '../helpers/json-shapes';

const ADMIN = { email: 'owner@shibe.cafe', password: 'counter e2e password' };
const xpub = testXpub(9);

const PRODUCTS = [
  {
    id: 'p-coffee',
    category: 'Drinks',
    sku: 'COF',
    name: 'Coffee',
    icon: '/pos-icons/coffee.svg',
    price: parseKoinu('2.5'),
    taxRateBp: 0,
    sort: 1,
  },
  {
    id: 'p-sandwich',
    category: 'Food',
    sku: 'SAN',
    name: 'Sandwich',
    icon: '/pos-icons/sandwich.svg',
    price: parseKoinu('7.25'),
    taxRateBp: 1000,
    sort: 2,
  },
  {
    id: 'p-croissant',
    category: 'Food',
    sku: 'CRO',
    name: 'Croissant',
    icon: '/pos-icons/croissant.svg',
    price: parseKoinu('3.1'),
    taxRateBp: 0,
    sort: 3,
  },
  {
    id: 'p-juice',
    category: 'Drinks',
    sku: 'JUI',
    name: 'Orange juice',
    icon: '/pos-icons/juice.svg',
    price: parseKoinu('4'),
    taxRateBp: 0,
    sort: 4,
  },
  {
    id: 'p-cake',
    category: 'Food',
    sku: 'CAK',
    name: 'Cheesecake',
    icon: '/pos-icons/cake.svg',
    price: parseKoinu('5.5'),
    taxRateBp: 700,
    sort: 5,
  },
  {
    id: 'p-tea',
    category: 'Drinks',
    sku: 'TEA',
    name: 'Green tea',
    icon: '/pos-icons/tea.svg',
    price: parseKoinu('2.2'),
    taxRateBp: 0,
    sort: 6,
  },
  {
    id: 'p-old',
    category: 'Food',
    sku: 'OLD',
    name: 'Archived muffin',
    icon: '',
    price: parseKoinu('1'),
    taxRateBp: 0,
    sort: 7,
    archived: true,
  },
];

const test = fileScopedTest(
  ['stack'],
  async (onStop) => {
    const node = await startLitecoind();
    onStop(() => node.dispose());
    const dataDir = mkdtempSync(join(tmpdir(), 'counter-pos-e2e-'));
    onStop(() => rmSync(dataDir, { recursive: true, force: true }));
    await seedPglite(dataDir, [
      {
        sql: `INSERT INTO store (id, name, fiat_rate, fiat_currency, tips_enabled) VALUES (1, $1, '0.2', 'USD', TRUE)`,
        params: ['Shibe Café'],
      },
      ...PRODUCTS.map((p) => ({
        sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived, category) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        params: [p.id, p.sku, p.name, p.icon, p.price.toString(), p.taxRateBp, p.sort, p.archived ?? false, p.category],
      })),
    ]);
    const app = await startApp(
      {
        DOGE_NETWORK: 'regtest',
        CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
        CHAIN_BACKEND: 'rpc',
        DOGE_RPC_URL: node.rpcUrl,
        STORE_XPUB: xpub,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
      { keepDataDir: dataDir },
    );
    onStop(() => app.stop());
    const stack: { app: AppServer; node: Litecoind } = { app, node };
    return { stack };
  },
  { log: (v) => v.stack.app },
);

/** With POS_DOCS_SCREENSHOT=1, copies a screenshot over docs/<name>. */
function docsShot(shot: string, name: string) {
  if (process.env.POS_DOCS_SCREENSHOT) copyFileSync(shot, resolve(__dirname, '../../docs', name));
}

async function useKeypad(page: Page, mode: string, keys: string, setLabel: string) {
  await page.getByRole('tab', { name: 'Keypad' }).click();
  await page.getByRole('radio', { name: mode }).click();
  for (const k of keys) await page.getByRole('button', { name: k, exact: true }).click();
  await page.getByRole('button', { name: setLabel }).click();
}

async function minTouchTarget(page: Page): Promise<number> {
  return page.evaluate(() => {
    const els = [...document.querySelectorAll('main button, main a, main [role=tab], main [role=radio]')] as HTMLElement[];
    return Math.min(...els.filter((e) => e.offsetParent !== null).map((e) => e.getBoundingClientRect().height));
  });
}

test('a sale from cart to confirmed on the cashier screen', async ({ page, stack }, testInfo) => {
  const { app, node } = stack;
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(app.url + '/pos'); // signed out, the till sends the cashier to sign in first
  await expect(page).toHaveURL(/\/login\?next=%2Fpos$/);
  await signInToTill(page, app.url, ADMIN);
  await expect(page.getByText('Shibe Café')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Archived muffin' })).toHaveCount(0);
  await expect(page.getByRole('tablist', { name: 'Categories' }).getByRole('tab')).toHaveText(['All', 'Drinks', 'Food']);

  // 2 sandwiches (10 % tax) + 1 coffee, a 1 DOGE discount and a 0.5 DOGE fee.
  await page.getByRole('button', { name: 'Add Sandwich' }).click();
  await page.getByRole('button', { name: 'Add Sandwich' }).click();
  await page.getByRole('button', { name: 'Add Coffee' }).click();
  await expect(page.getByLabel('Sandwich count')).toHaveText('2');
  await useKeypad(page, 'Discount', '1', 'Set discount');
  await useKeypad(page, 'Fee', '0.5', 'Set fee');
  await page.screenshot({ path: testInfo.outputPath('keypad-1024x768.png') });
  await expect(page.getByTestId('cart-tax')).toHaveText('Ð 1.45');
  await expect(page.getByTestId('cart-total')).toHaveText('Ð 17.95'); // 14.5 + 1.45 + 2.5 + 0.5 − 1
  await expect(page.getByText('3.59 USD')).toBeVisible();
  await page.getByRole('tab', { name: 'Products' }).click();
  expect(await minTouchTarget(page)).toBeGreaterThanOrEqual(44);
  const shot = testInfo.outputPath('cashier-1024x768.png');
  await page.screenshot({ path: shot });
  docsShot(shot, 'cashier.png');

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await minTouchTarget(page)).toBeGreaterThanOrEqual(44);
  await page.screenshot({ path: testInfo.outputPath('cashier-390x844.png'), fullPage: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath('cashier-phone.png') }); // what the phone shows
  docsShot(testInfo.outputPath('cashier-phone.png'), 'cashier-phone.png');
  await page.setViewportSize({ width: 1024, height: 768 });

  await page.getByRole('button', { name: /^Charge Ð 17.95$/ }).click();
  const qr = page.getByRole('img', { name: 'Payment QR code' });
  await expect(qr).toBeVisible();
  expect((await qr.boundingBox())!.width).toBeGreaterThanOrEqual(300);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByLabel('Time left')).toHaveText(/^1[45]:\d\d$/);

  // The URI on screen is the one in the QR code, and it matches the signed envelope. The till
  // opens on the dogecoin: form every wallet reads; DogeConnect is the toggle.
  await expect(page.getByRole('radio', { name: 'dogecoin: URI' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('connect-needed')).toHaveCount(0);
  const dogeUri = await page.getByTestId('payment-uri').innerText();
  expect(dogeUri).toMatch(/^dogecoin:/);
  await expect(qr).toHaveAttribute('data-uri', dogeUri);
  await page.getByRole('radio', { name: 'DogeConnect' }).click();
  await expect(page.getByTestId('payment-uri')).toHaveText(/^dogeconnect:/);
  const connectUri = await page.getByTestId('payment-uri').innerText();
  await expect(qr).toHaveAttribute('data-uri', connectUri);
  const parsed = parsePaymentUri(connectUri) as { kind: string; hash15: Uint8Array; envelopeUrl?: string };
  expect(parsed.kind).toBe('connect');
  const id = paymentIdOf(connectUri);
  const env = await (await fetch(`${app.url}/dc/${id}`)).json();
  const { payment } = verifyPaymentEnvelope(env, { expectedHash15: parsed.hash15 });
  expect(payment).toMatchObject({
    id,
    total: '17.95',
    taxes: '1.45',
    fees: '0.5',
    fiat_total: '3.59',
    fiat_tax: '0.29',
    fiat_currency: 'USD',
    vendor_name: 'Shibe Café',
  });
  expect(payment.items.map((i) => [i.type, i.id, i.count, i.unit, i.tax])).toEqual([
    ['item', 'SAN', 2, '7.25', '1.45'],
    ['item', 'COF', 1, '2.5', ''],
    ['fee', 'fee', 1, '0.5', ''],
    ['discount', 'discount', 1, '-1', ''],
  ]);
  await page.getByRole('radio', { name: 'dogecoin: URI' }).click();
  await expect(qr).toHaveAttribute('data-uri', dogeUri);
  const d = parsePaymentUri(dogeUri) as { kind: string; address: string; hash15: Uint8Array };
  expect(d.address).toBe(payment.outputs[0].address);
  expect(dogeUri).toContain('amount=17.95');
  verifyPaymentEnvelope(env, { expectedHash15: d.hash15 });
  await page.screenshot({ path: testInfo.outputPath('payment-1024x768.png') });
  docsShot(testInfo.outputPath('payment-1024x768.png'), 'cashier-payment.png');

  // Pay with litecoind's wallet through the relay; the screen follows live.
  const tx = await node.payTo(
    payment.outputs.flatMap((o) =>
      o.type === 'p2pkh' && o.address && o.amount ? [{ address: o.address, amountKoinu: parseKoinu(o.amount) }] : [],
    ),
  );
  const pay = await fetch(`${app.url}/relay/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ id, tx }),
  });
  expect(pay.status).toBe(200);
  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-state', 'accepted');
  await expect(status).toContainText('0 of 1 confirmation');
  await expect(page.getByText((await pay.json()).txid)).toBeVisible();
  await node.mine(1);
  await expect(status).toHaveAttribute('data-state', 'confirmed');
  await expect(status).toContainText('Paid ✓');
  await page.screenshot({ path: testInfo.outputPath('paid-1024x768.png') });

  // New sale: an empty cart, and the sale is in today's list with its receipt.
  await page.getByRole('button', { name: 'New sale' }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('Ð 0.00');
  const recent = page.getByRole('region', { name: 'Recent sales' });
  await expect(recent.getByText('Ð 17.95')).toBeVisible();
  await expect(recent.getByText('Paid')).toBeVisible();
  await page.goto(`${app.url}/pos/receipt/${id}`);
  await expect(page.getByRole('article', { name: 'Receipt' })).toContainText('Total');
  await expect(page.getByRole('article', { name: 'Receipt' })).toContainText('Ð 17.95');
  await expect(page.getByTestId('receipt-status')).toContainText('Paid');
  await page.screenshot({ path: testInfo.outputPath('receipt.png') });
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
});

test('a keypad-only sale with a tip, then cancelled while waiting', async ({ page, stack }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToTill(page, stack.app.url, ADMIN);
  await useKeypad(page, 'Custom item', '12.5', 'Add to cart');
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await useKeypad(page, 'Tip', '1', 'Set tip'); // this store enables tips
  await expect(page.getByTestId('cart-total')).toHaveText('Ð 13.50');
  await page.getByRole('button', { name: /^Charge Ð 13.50$/ }).click();
  await expect(page.getByRole('img', { name: 'Payment QR code' })).toBeVisible();
  const id = await shownPaymentId(page);
  const signed: ConnectPayment = JSON.parse(
    Buffer.from((await (await fetch(`${stack.app.url}/dc/${id}`)).json()).payload, 'base64').toString('utf8'),
  );
  expect(signed.items.map((i) => [i.type, i.unit])).toEqual([
    ['item', '12.5'],
    ['donation', '1'],
  ]);
  expect(signed).toMatchObject({ total: '13.5', fiat_total: '2.70', fiat_currency: 'USD' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await minTouchTarget(page)).toBeGreaterThanOrEqual(44);
  await page.screenshot({ path: testInfo.outputPath('payment-390x844.png'), fullPage: true });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Cancel this payment?' }).getByRole('button', { name: 'Cancel payment' }).click(); // it asks first (docs/using-counter.md#the-till-pos)
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await page.getByRole('button', { name: 'New sale' }).click();
  await expect(page.getByRole('region', { name: 'Recent sales' }).getByText('Cancelled')).toBeVisible();
  // Receipts need a session, and an unknown id is a 404.
  const anon = await fetch(`${stack.app.url}/pos/receipt/${id}`, { redirect: 'manual' });
  expect(anon.status).toBe(307);
  expect(anon.headers.get('location')).toContain('/login?next=%2Fpos%2Freceipt%2F');
  expect((await page.goto(`${stack.app.url}/pos/receipt/${'Z'.repeat(22)}`))!.status()).toBe(404);
});

test('a lost Charge answer is retried without a second payment; a refused tx leaves the till waiting', async ({ page, stack }) => {
  const { app, node } = stack;
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, ADMIN);
  await page.getByRole('button', { name: 'Add Green tea' }).click();
  // The first Charge reaches the server but its answer is lost on the way back; pressing Charge
  // again replays the same Idempotency-Key and gets the same payment, not a second one.
  let firstKey = '';
  await page.route(
    '**/api/v1/payments',
    async (route) => {
      firstKey = route.request().headers()['idempotency-key'];
      await route.fetch();
      await route.abort('connectionreset');
    },
    { times: 1 },
  );
  await page.getByRole('button', { name: /^Charge Ð 2.20$/ }).click();
  await expect(page.getByText('network error: check the connection')).toBeVisible();
  const replay = page.waitForResponse((r) => r.url().endsWith('/api/v1/payments') && r.request().method() === 'POST');
  await page.getByRole('button', { name: /^Charge Ð 2.20$/ }).click();
  const again = await replay;
  expect(firstKey).toMatch(/^pos-[0-9a-f]{32}$/);
  expect(again.request().headers()['idempotency-key']).toBe(firstKey);
  expect(again.headers()['idempotent-replayed']).toBe('true');
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-state', 'waiting');
  const id = await shownPaymentId(page);
  const p = JSON.parse(Buffer.from((await (await fetch(`${app.url}/dc/${id}`)).json()).payload, 'base64').toString('utf8'));
  // Spend a coin elsewhere first, then offer the relay a transaction spending the same coin:
  // refused (400 invalid_tx), and the payment stays payable (docs/relay.md).
  const utxo = (await node.rpc<NodeUnspentJson[]>('listunspent', 1))[0];
  await node.send(
    await node.payTo([{ address: await node.newAddress(), amountKoinu: 100_000_000n }], { inputs: [{ txid: utxo.txid, vout: utxo.vout }] }),
  );
  const out = p.outputs[0];
  const pay = (tx: string) =>
    fetch(`${app.url}/relay/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id, tx }) });
  const tx = await node.payTo([{ address: out.address, amountKoinu: parseKoinu(out.amount) }], {
    inputs: [{ txid: utxo.txid, vout: utxo.vout }],
  });
  const r = await pay(tx);
  expect(r.status).toBe(400);
  expect(await r.json()).toMatchObject({ error: 'invalid_tx', message: expect.stringMatching(/spent/) });
  const status = page.getByTestId('payment-status');
  // The till never presents it as declined: still waiting, with its countdown and Cancel.
  await page.waitForTimeout(1500); // several feed polls
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(status).toContainText('Waiting for payment');
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  // The customer's real transaction then pays it.
  const good = await pay(await node.payTo([{ address: out.address, amountKoinu: parseKoinu(out.amount) }]));
  expect(good.status).toBe(200);
  await expect(status).toHaveAttribute('data-state', 'accepted');
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
});
