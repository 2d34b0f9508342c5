// The QR code every wallet reads (docs/relay.md), in real Chromium against Dogecoin Core 1.14.9
// (`dogecoind -regtest`, rpc backend), at 1024×768, 1280×800 and 390×844:
// - the till opens on the dogecoin: form, drawn with error correction M and a 4-module quiet
//   zone, with modules of at least 4 CSS px;
// - zbar (`zbarimg`, Debian's zbar-tools) reads it from a screenshot of the whole screen scaled
//   to half size;
// - an ordinary wallet (tests/helpers/wild-wallets.ts) takes only the address and amount from
//   what zbar read and pays them from the node's wallet (`sendtoaddress`): the till turns paid;
// - a payment with a data output opens on dogeconnect: and says a DogeConnect wallet is needed;
//   an ordinary wallet that pays its dogecoin: form's address and amount anyway (no OP_RETURN)
//   leaves the till on "paid without the order data" (docs/api.md#data_missing), never paid.
// tests/e2e/till-qr-devnet.spec.ts runs the ordinary wallet against a devnet app.
// Skipped, saying why, when dogecoind or zbarimg is absent.
import { test as base, expect } from '@playwright/test';
import { signInToTill } from './fixtures';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedPglite } from './seed-pglite';
import { testXpub } from '../helpers/keys';
import { startApp, type AppServer } from '../helpers/app-server';
import { haveDogecoind, skipReason, startDogecoind, type Dogecoind } from '../helpers/dogecoind';
import { scanOrdinaryQr } from '../helpers/wild-wallets';
import { ZBARIMG, checkShownQr } from './qr-read';

const OWNER = { email: 'owner@qr.test', password: 'counter qr decode e2e password' };
const xpub = testXpub(29);
const SIZES = [{ width: 1024, height: 768 }, { width: 1280, height: 800 }, { width: 390, height: 844 }];

const test = base.extend<object, { node: Dogecoind; app: AppServer }>({
  node: [
    async ({}, use) => {
      const node = await startDogecoind({ matureBlocks: 80 });
      await node.mine(5);
      await use(node);
      await node.dispose();
    },
    { scope: 'worker' },
  ],
  app: [
    async ({ node }, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'counter-qr-e2e-'));
      await seedPglite(dataDir, [
        { sql: `INSERT INTO store (id, name, tips_enabled) VALUES (1, $1, FALSE)`, params: ['Café Ünïcode > QR'] },
        { sql: `INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived) VALUES ('p-tea', 'TEA', 'Tea', '', $1, 0, 0, FALSE)`, params: ['1234500000'] },
      ]);
      const app = await startApp(
        {
          DOGE_NETWORK: 'regtest', CHAIN_BACKEND: 'rpc', DOGE_RPC_URL: node.rpcUrl, STORE_XPUB: xpub,
          ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, BOOTSTRAP_API_KEY: 'qr_' + randomBytes(24).toString('base64url'),
        },
        { keepDataDir: dataDir },
      );
      await use(app);
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});

test.skip(!haveDogecoind, skipReason);
test.skip(!existsSync(ZBARIMG), `zbarimg not found at ${ZBARIMG} (apt-get install zbar-tools): the QR decoding test is skipped`);


for (const size of SIZES) {
  test(`${size.width}×${size.height}: the dogecoin: form opens, zbar reads it at half size, an ordinary wallet pays it and the till turns paid`, async ({ page, app, node }, testInfo) => {
    await page.setViewportSize(size);
    await signInToTill(page, app.url, OWNER);
    await page.getByRole('button', { name: 'Add Tea' }).click();
    await page.getByRole('button', { name: /^Charge Ð/ }).click();
    await expect(page.getByTestId('payment-status')).toHaveAttribute('data-state', 'waiting');
    await expect(page.getByRole('radio', { name: 'dogecoin: URI' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByTestId('connect-needed')).toHaveCount(0);

    const { uri, modulePx, modules } = await checkShownQr(page, testInfo.outputPath('half.png'));
    console.log(`${size.width}×${size.height}: dogecoin: form, ${modules} modules at ${modulePx.toFixed(2)} CSS px each; zbar read the half-size screenshot`);
    expect(uri).toMatch(/^dogecoin:[1-9A-HJ-NP-Za-km-z]+\?amount=12\.345&dc=.+&h=[A-Za-z0-9_-]{20}$/);
    // The toggle offers the dogeconnect: form, under the same rules.
    await page.getByRole('radio', { name: 'DogeConnect' }).click();
    const connect = await checkShownQr(page, testInfo.outputPath('half-connect.png'));
    expect(connect.uri).toMatch(/^dogeconnect:/);
    console.log(`${size.width}×${size.height}: dogeconnect: form, ${connect.modules} modules at ${connect.modulePx.toFixed(2)} CSS px each`);
    await page.getByRole('radio', { name: 'dogecoin: URI' }).click();
    await expect(page.getByTestId('payment-uri')).toHaveText(uri);

    // The ordinary wallet reads what zbar read: the address and the amount, nothing else.
    const { address, amount } = scanOrdinaryQr(uri);
    expect(amount).toBe('12.345');
    const txid = await node.rpc<string>('sendtoaddress', address, Number(amount));
    await expect(page.getByTestId('payment-status')).toHaveAttribute('data-state', 'accepted', { timeout: 30_000 });
    await node.mine(1);
    await expect(page.getByTestId('payment-status')).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
    await expect(page.getByTestId('hand-over')).toBeVisible();
    await expect(page.locator('p', { hasText: txid })).toHaveCount(1);
  });
}

test('a payment with a data output opens on dogeconnect: and says a DogeConnect wallet is needed; zbar reads it at every size', async ({ page, app }, testInfo) => {
  await page.setViewportSize(SIZES[0]);
  await signInToTill(page, app.url, OWNER);
  // Started by the signed-in cashier through the vendor API (the till has no data outputs), so
  // it is one of today's sales and can be reopened.
  const created = await page.evaluate(async () => {
    const me = await (await fetch('/api/auth/me')).json();
    const r = await fetch('/api/v1/payments', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf_token },
      body: JSON.stringify({ items: [{ type: 'item', id: 'x', name: 'Notarised receipt', count: 1, unit: '3' }, { type: 'signing', id: 's', name: 'Receipt hash' }],
        outputs: [{ type: 'data', data: '636f756e746572' }], order_reference: 'DATA-1' }),
    });
    return { status: r.status, body: await r.json() };
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(app.url + '/pos');
    await page.getByRole('button', { name: 'Reopen DATA-1' }).click();
    await expect(page.getByTestId('connect-needed')).toHaveText(/DogeConnect wallet is needed/);
    await expect(page.getByRole('radio', { name: 'DogeConnect' })).toHaveAttribute('aria-checked', 'true');
    const { uri } = await checkShownQr(page, testInfo.outputPath(`data-${size.width}.png`));
    expect(uri).toBe(created.body.connect_uri);
    // The toggle still offers the dogecoin: form.
    await page.getByRole('radio', { name: 'dogecoin: URI' }).click();
    await expect(page.getByTestId('payment-uri')).toHaveText(created.body.uri);
  }
});

test('an ordinary wallet pays the dogecoin: form of a data payment (no OP_RETURN): the till says the order data is missing, never paid', async ({ page, app, node }, testInfo) => {
  await page.setViewportSize(SIZES[0]);
  await signInToTill(page, app.url, OWNER);
  // Through the vendor API by the signed-in cashier, as above; a data output only.
  const created = await page.evaluate(async () => {
    const me = await (await fetch('/api/auth/me')).json();
    const r = await fetch('/api/v1/payments', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf_token },
      body: JSON.stringify({ items: [{ type: 'item', id: 'x', name: 'Order with data', count: 1, unit: '4.5' }],
        outputs: [{ type: 'data', data: '6f72646572' }], order_reference: 'DATA-2' }),
    });
    return { status: r.status, body: await r.json() };
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await page.goto(app.url + '/pos');
  await page.getByRole('button', { name: 'Reopen DATA-2' }).click();
  await expect(page.getByTestId('connect-needed')).toHaveText(/DogeConnect wallet is needed/);
  // The cashier shows the dogecoin: form through the toggle; the customer's ordinary wallet scans it.
  await page.getByRole('radio', { name: 'dogecoin: URI' }).click();
  const { uri } = await checkShownQr(page, testInfo.outputPath('data-plain.png'));
  expect(uri).toBe(created.body.uri);
  const { address, amount } = scanOrdinaryQr(uri);
  expect(amount).toBe('4.5');
  const txid = await node.rpc<string>('sendtoaddress', address, Number(amount));
  const outs = (await node.rpc<{ vout: { scriptPubKey: { type: string } }[] }>('getrawtransaction', txid, 1)).vout;
  expect(outs.map((o) => o.scriptPubKey.type)).not.toContain('nulldata');

  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-exception', 'data_missing', { timeout: 30_000 });
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(status).toContainText('Paid without the order data');
  await expect(status).toContainText('Refund it or mark it settled in the back office.');
  // A block changes nothing: the data was never committed.
  await node.mine(1);
  await page.waitForTimeout(3_000);
  await expect(status).toHaveAttribute('data-exception', 'data_missing');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('hand-over')).toHaveCount(0);
  await expect(page.getByTestId('underpaid')).toHaveCount(0);
});
