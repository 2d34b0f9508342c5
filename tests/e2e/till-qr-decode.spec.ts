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
import { expect } from '@playwright/test';
import { fileScopedTest, signInToTill } from './fixtures';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedPglite } from './seed-pglite';
import { testXpub } from '../helpers/keys';
import { startApp } from '../helpers/app-server';
import { haveDogecoind, skipReason, startDogecoind, type Dogecoind } from '../helpers/dogecoind';
import { ZBARIMG, chargeTeaAndScan, checkShownQr, createDataSale, dataSalePaidPlainly, expectPaidAfterBlock } from './qr-read';

const OWNER = { email: 'owner@qr.test', password: 'counter qr decode e2e password' };
const xpub = testXpub(29);
const SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

// The node and the app were two worker fixtures of 90 s each; one hook starts both.
const test = fileScopedTest(
  ['node', 'app'],
  async (onStop) => {
    const node: Dogecoind = await startDogecoind({ matureBlocks: 80 });
    onStop(() => node.dispose());
    await node.mine(5);
    const dataDir = mkdtempSync(join(tmpdir(), 'counter-qr-e2e-'));
    onStop(() => rmSync(dataDir, { recursive: true, force: true }));
    await seedPglite(dataDir, [
      { sql: `INSERT INTO store (id, name, tips_enabled) VALUES (1, $1, FALSE)`, params: ['Café Ünïcode > QR'] },
      {
        sql: `INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived) VALUES ('p-tea', 'TEA', 'Tea', '', $1, 0, 0, FALSE)`,
        params: ['1234500000'],
      },
    ]);
    const app = await startApp(
      {
        DOGE_NETWORK: 'regtest',
        CHAIN_BACKEND: 'rpc',
        DOGE_RPC_URL: node.rpcUrl,
        STORE_XPUB: xpub,
        ADMIN_EMAIL: OWNER.email,
        ADMIN_PASSWORD: OWNER.password,
        BOOTSTRAP_API_KEY: 'qr_' + randomBytes(24).toString('base64url'),
      },
      { keepDataDir: dataDir },
    );
    onStop(() => app.stop());
    return { node, app };
  },
  { timeout: 180_000, log: (v) => v.app },
);

test.skip(!haveDogecoind, skipReason);
test.skip(!existsSync(ZBARIMG), `zbarimg not found at ${ZBARIMG} (apt-get install zbar-tools): the QR decoding test is skipped`);

for (const size of SIZES) {
  test(`${size.width}×${size.height}: the dogecoin: form opens, zbar reads it at half size, an ordinary wallet pays it and the till turns paid`, async ({
    page,
    app,
    node,
  }, testInfo) => {
    await page.setViewportSize(size);
    await signInToTill(page, app.url, OWNER);
    const { uri, modulePx, modules, address, amount } = await chargeTeaAndScan(page, testInfo.outputPath('half.png'));
    console.log(
      `${size.width}×${size.height}: dogecoin: form, ${modules} modules at ${modulePx.toFixed(2)} CSS px each; zbar read the half-size screenshot`,
    );
    // The toggle offers the dogeconnect: form, under the same rules.
    await page.getByRole('radio', { name: 'DogeConnect' }).click();
    const connect = await checkShownQr(page, testInfo.outputPath('half-connect.png'));
    expect(connect.uri).toMatch(/^dogeconnect:/);
    console.log(
      `${size.width}×${size.height}: dogeconnect: form, ${connect.modules} modules at ${connect.modulePx.toFixed(2)} CSS px each`,
    );
    await page.getByRole('radio', { name: 'dogecoin: URI' }).click();
    await expect(page.getByTestId('payment-uri')).toHaveText(uri);

    // The ordinary wallet (Dogecoin Core) pays what zbar read: the address and the amount.
    const txid = await node.rpc<string>('sendtoaddress', address, Number(amount));
    await expectPaidAfterBlock(page, txid, () => node.mine(1));
  });
}

test('a payment with a data output opens on dogeconnect: and says a DogeConnect wallet is needed; zbar reads it at every size', async ({
  page,
  app,
}, testInfo) => {
  await page.setViewportSize(SIZES[0]);
  await signInToTill(page, app.url, OWNER);
  const created = await createDataSale(page, {
    items: [
      { type: 'item', id: 'x', name: 'Notarised receipt', count: 1, unit: '3' },
      { type: 'signing', id: 's', name: 'Receipt hash' },
    ],
    outputs: [{ type: 'data', data: '636f756e746572' }],
    order_reference: 'DATA-1',
  });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(app.url + '/pos');
    await page.getByRole('button', { name: 'Reopen DATA-1' }).click();
    await expect(page.getByTestId('connect-needed')).toHaveText(/DogeConnect wallet is needed/);
    await expect(page.getByRole('radio', { name: 'DogeConnect' })).toHaveAttribute('aria-checked', 'true');
    const { uri } = await checkShownQr(page, testInfo.outputPath(`data-${size.width}.png`));
    expect(uri).toBe(created.connect_uri);
    // The toggle still offers the dogecoin: form.
    await page.getByRole('radio', { name: 'dogecoin: URI' }).click();
    await expect(page.getByTestId('payment-uri')).toHaveText(created.uri);
  }
});

test('an ordinary wallet pays the dogecoin: form of a data payment (no OP_RETURN): the till says the order data is missing, never paid', async ({
  page,
  app,
  node,
}, testInfo) => {
  await page.setViewportSize(SIZES[0]);
  await signInToTill(page, app.url, OWNER);
  const pay = async (address: string, amount: string) => {
    const txid = await node.rpc<string>('sendtoaddress', address, Number(amount));
    const outs = (await node.rpc<{ vout: { scriptPubKey: { type: string } }[] }>('getrawtransaction', txid, 1)).vout;
    expect(outs.map((o) => o.scriptPubKey.type)).not.toContain('nulldata');
    return txid;
  };
  await dataSalePaidPlainly(page, app.url, 'DATA-2', testInfo.outputPath('data-plain.png'), pay, () => node.mine(1));
});
