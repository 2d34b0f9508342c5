// The QR code every wallet reads (docs/relay.md), in real Chromium against the in-process devnet
// chain (CHAIN_BACKEND=devnet), at 1024×768: the ordinary wallet of till-qr-decode.spec.ts, with
// the devnet demo wallet (`POST /demo/api/send {address, amount}`, a plain transaction like any
// ordinary wallet's) in place of Dogecoin Core:
// - zbar (`zbarimg`) reads the till's dogecoin: form from a half-size screenshot; the wallet
//   takes only the address and amount and pays them: the till turns accepted, then paid after a
//   block mined on request (`POST /demo/api/mine`);
// - a payment with a data output, paid the same way from its dogecoin: form (no OP_RETURN):
//   the till says the order data is missing (docs/api.md#data_missing), never paid.
// Skipped, saying why, when zbarimg is absent.
import { signInToTill } from './fixtures';
import { existsSync } from 'node:fs';
import { testXpub } from '../helpers/keys';
import { ZBARIMG, chargeTeaAndScan, dataSalePaidPlainly, expectPaidAfterBlock } from './qr-read';
import { mineBlock, walletPays } from './counter-helpers';
import { addProduct, sharedShopTest } from './shared-shop';

const OWNER = { email: 'owner@qr-devnet.test', password: 'counter qr devnet e2e password' };

// A store of this file's own (tips off, as a new store starts) on the worker's shared devnet app
// (tests/e2e/shared-shop.ts), selling Tea at 12.345 DOGE.
const test = sharedShopTest({ owner: OWNER, xpub: testXpub(31), name: 'QR Devnet Shop' }, (app, shop) =>
  addProduct(app, shop, { sku: 'TEA', name: 'Tea', price: '12.345' }),
);

test.skip(!existsSync(ZBARIMG), `zbarimg not found at ${ZBARIMG} (apt-get install zbar-tools): the QR decoding test is skipped`);

const mine = mineBlock;

test("an ordinary wallet scans the till's dogecoin: form, pays its address and amount on devnet: the till turns paid", async ({
  page,
  app,
}, testInfo) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, OWNER);
  const { address, amount } = await chargeTeaAndScan(page, testInfo.outputPath('half.png'));
  const txid = await walletPays(app.url, address, amount);
  await expectPaidAfterBlock(page, txid, () => mine(app.url));
});

test('a data payment paid from its dogecoin: form by an ordinary wallet on devnet (no OP_RETURN): the till says the order data is missing, never paid', async ({
  page,
  app,
}, testInfo) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, OWNER);
  await dataSalePaidPlainly(
    page,
    app.url,
    'DATA-DEV',
    testInfo.outputPath('data-plain.png'),
    (address, amount) => walletPays(app.url, address, amount),
    () => mine(app.url),
  );
});
