// The QR code every wallet reads (docs/relay.md), in real Chromium against Dogecoin Core 1.14.9
// (`dogecoind -regtest`, rpc backend), at 1024×768, 1280×800 and 390×844:
// - the till opens on the dogecoin: form, drawn with error correction M and a 4-module quiet
//   zone, with modules of at least 4 CSS px;
// - zbar (`zbarimg`, Debian's zbar-tools) reads it from a screenshot of the whole screen scaled
//   to half size;
// - an ordinary wallet (tests/helpers/wild-wallets.ts) takes only the address and amount from
//   what zbar read and pays them from the node's wallet (`sendtoaddress`): the till turns paid;
// - a payment with a data output opens on dogeconnect: and says a DogeConnect wallet is needed.
// Skipped, saying why, when dogecoind or zbarimg is absent.
import { test as base, expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import QRCode from 'qrcode';
import { seedPglite } from './seed-pglite';
import { testXpub } from '../helpers/keys';
import { startApp, type AppServer } from '../helpers/app-server';
import { haveDogecoind, skipReason, startDogecoind, type Dogecoind } from '../helpers/dogecoind';
import { scanOrdinaryQr } from '../helpers/wild-wallets';

const ZBARIMG = '/usr/bin/zbarimg';
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

async function signIn(page: Page, url: string) {
  await page.goto(url + '/pos');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByTestId('till-not-ready')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
}

/** The whole screen, scaled to half size by Chromium's canvas (smoothing on), as PNG bytes. */
async function halfSizeScreenshot(page: Page): Promise<Buffer> {
  const full = await page.screenshot({ scale: 'css' });
  const dataUrl = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = Math.round(img.width / 2);
    c.height = Math.round(img.height / 2);
    const g = c.getContext('2d')!;
    g.imageSmoothingEnabled = true;
    g.imageSmoothingQuality = 'high';
    g.drawImage(img, 0, 0, c.width, c.height);
    return c.toDataURL('image/png');
  }, 'data:image/png;base64,' + full.toString('base64'));
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

/** What zbar reads from a PNG: the QR symbols' texts. */
function zbarRead(png: Buffer, file: string): string[] {
  writeFileSync(file, png);
  const r = spawnSync(ZBARIMG, ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', file], { encoding: 'utf8' });
  if (r.status !== 0) return [];
  return r.stdout.split('\n').filter(Boolean);
}

/** The QR code on screen: the form it shows, its geometry and what zbar reads at half size. */
async function checkShownQr(page: Page, file: string) {
  const img = page.getByRole('img', { name: 'Payment QR code' });
  await expect(img).toBeVisible();
  const uri = (await img.getAttribute('data-uri'))!;
  await expect(page.getByTestId('payment-uri')).toHaveText(uri);
  // Error correction M and a quiet zone of 4 modules: the drawn SVG is exactly that symbol.
  const src = (await img.getAttribute('src'))!;
  const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
  expect(svg).toBe(await QRCode.toString(uri, { type: 'svg', margin: 4, errorCorrectionLevel: 'M', color: { dark: '#1d1b16', light: '#ffffff' } }));
  const modules = QRCode.create(uri, { errorCorrectionLevel: 'M' }).modules.size + 8;
  expect(Number(await img.getAttribute('data-modules'))).toBe(modules);
  const box = (await img.boundingBox())!;
  const modulePx = Math.min(box.width, box.height) / modules;
  expect(modulePx, `module ${modulePx.toFixed(2)} CSS px (${box.width}×${box.height} px, ${modules} modules)`).toBeGreaterThanOrEqual(4);
  const read = zbarRead(await halfSizeScreenshot(page), file);
  expect(read, 'zbar reads the half-size screenshot').toEqual([uri]);
  return { uri, modulePx, modules };
}

for (const size of SIZES) {
  test(`${size.width}×${size.height}: the dogecoin: form opens, zbar reads it at half size, an ordinary wallet pays it and the till turns paid`, async ({ page, app, node }, testInfo) => {
    await page.setViewportSize(size);
    await signIn(page, app.url);
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
  await signIn(page, app.url);
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
