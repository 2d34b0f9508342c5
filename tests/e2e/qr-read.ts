// Reading the till's QR code as a phone camera would (docs/relay.md): the code on screen, its
// geometry, and what zbar (`zbarimg`, Debian's zbar-tools) reads from a half-size screenshot.
// Shared by tests/e2e/till-qr-decode.spec.ts (dogecoind) and tests/e2e/till-qr-devnet.spec.ts,
// with the steps both take on the till: charge and read the code, pay it as an ordinary wallet,
// and a data payment paid from its dogecoin: form.
import { expect, type Page } from '@playwright/test';
import { scanOrdinaryQr } from '../helpers/wild-wallets';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

export const ZBARIMG = '/usr/bin/zbarimg';

/** A PNG scaled to half size by Chromium's canvas (smoothing on), as a phone camera blurs it at 30 cm. */
export async function halfSize(page: Page, png: Buffer): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    async (src) => {
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
    },
    'data:image/png;base64,' + png.toString('base64'),
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

/** The whole screen, at half size. */
async function halfSizeScreenshot(page: Page): Promise<Buffer> {
  return halfSize(page, await page.screenshot({ scale: 'css' }));
}

/** What zbar reads from a PNG (written to `file`): the QR symbols' texts. */
export function zbarRead(png: Buffer, file: string): string[] {
  writeFileSync(file, png);
  const r = spawnSync(ZBARIMG, ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', file], { encoding: 'utf8' });
  if (r.status !== 0) return [];
  return r.stdout.split('\n').filter(Boolean);
}

/** The QR code on screen: the form it shows, its geometry and what zbar reads at half size. */
export async function checkShownQr(page: Page, file: string) {
  const img = page.getByRole('img', { name: 'Payment QR code' });
  await expect(img).toBeVisible();
  const uri = (await img.getAttribute('data-uri'))!;
  await expect(page.getByTestId('payment-uri')).toHaveText(uri);
  // Error correction M and a quiet zone of 4 modules: the drawn SVG is exactly that symbol,
  // black on white (lib/checkout/qr.ts draws it for the till, the checkout page and the display).
  const src = (await img.getAttribute('src'))!;
  const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
  expect(svg).toBe(
    await QRCode.toString(uri, { type: 'svg', margin: 4, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }),
  );
  const modules = QRCode.create(uri, { errorCorrectionLevel: 'M' }).modules.size + 8;
  expect(Number(await img.getAttribute('data-modules'))).toBe(modules);
  const box = (await img.boundingBox())!;
  const modulePx = Math.min(box.width, box.height) / modules;
  expect(modulePx, `module ${modulePx.toFixed(2)} CSS px (${box.width}×${box.height} px, ${modules} modules)`).toBeGreaterThanOrEqual(4);
  const read = zbarRead(await halfSizeScreenshot(page), file);
  expect(read, 'zbar reads the half-size screenshot').toEqual([uri]);
  return { uri, modulePx, modules };
}

/** Every QR code zbar reads from a half-size screenshot of the page as it is (the customer's display, a pairing code). */
export async function readScreenQr(page: Page, file: string): Promise<string[]> {
  return zbarRead(await halfSizeScreenshot(page), file);
}

/** The ordinary wallet's part: pays `amount` DOGE to `address` with a plain transaction; its txid. */
export type OrdinaryWalletPay = (address: string, amount: string) => Promise<string>;

/**
 * The till sells the seeded Tea (12.345 DOGE): Charge opens on the dogecoin: form, zbar reads
 * it at half size, and an ordinary wallet reads from it only the address and the amount.
 */
export async function chargeTeaAndScan(page: Page, file: string) {
  await page.getByRole('button', { name: 'Add Tea' }).click();
  await page.getByRole('button', { name: /^Charge Ð/ }).click();
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByRole('radio', { name: 'dogecoin: URI' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('connect-needed')).toHaveCount(0);
  const shown = await checkShownQr(page, file);
  expect(shown.uri).toMatch(/^dogecoin:[1-9A-HJ-NP-Za-km-z]+\?amount=12\.345&dc=.+&h=[A-Za-z0-9_-]{20}$/);
  const { address, amount } = scanOrdinaryQr(shown.uri);
  expect(amount).toBe('12.345');
  return { ...shown, address, amount };
}

/** The wallet's tx makes the sale accepted; a block (`mineBlock`) makes it paid, "OK to hand over", with its txid. */
export async function expectPaidAfterBlock(page: Page, txid: string, mineBlock: () => Promise<unknown>) {
  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-state', 'accepted', { timeout: 30_000 });
  await expect(status).not.toHaveAttribute('data-exception', /.+/);
  await mineBlock();
  await expect(status).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
  await expect(page.getByTestId('hand-over')).toBeVisible();
  await expect(page.locator('p', { hasText: txid })).toHaveCount(1);
}

export interface CreatedSale {
  uri: string;
  connect_uri: string;
}

/**
 * A payment with a data output (and `items`), started by the signed-in cashier through the
 * vendor API (the till makes no data outputs), so it is one of today's sales and can be reopened.
 */
export async function createDataSale(
  page: Page,
  order: { items: unknown[]; outputs: unknown[]; order_reference: string },
): Promise<CreatedSale> {
  const created = await page.evaluate(async (body) => {
    const me = await (await fetch('/api/auth/me')).json();
    const r = await fetch('/api/v1/payments', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf_token },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  }, order);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as CreatedSale;
}

/**
 * The data payment `ref` (4.5 DOGE, one data output), reopened on the till, opens on
 * dogeconnect: with its notice; the cashier shows the dogecoin: form, an ordinary wallet scans it
 * and pays it without the OP_RETURN: the till says the order data is missing, and a block
 * (`mineBlock`) changes nothing: never paid.
 */
export async function dataSalePaidPlainly(
  page: Page,
  url: string,
  ref: string,
  file: string,
  pay: OrdinaryWalletPay,
  mineBlock: () => Promise<unknown>,
) {
  const created = await createDataSale(page, {
    items: [{ type: 'item', id: 'x', name: 'Order with data', count: 1, unit: '4.5' }],
    outputs: [{ type: 'data', data: '6f72646572' }],
    order_reference: ref,
  });
  await page.goto(url + '/pos');
  await page.getByRole('button', { name: `Reopen ${ref}` }).click();
  await expect(page.getByTestId('connect-needed')).toHaveText(/DogeConnect wallet is needed/);
  await page.getByRole('radio', { name: 'dogecoin: URI' }).click();
  const { uri } = await checkShownQr(page, file);
  expect(uri).toBe(created.uri);
  const { address, amount } = scanOrdinaryQr(uri);
  expect(amount).toBe('4.5');
  const txid = await pay(address, amount);

  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-exception', 'data_missing', { timeout: 30_000 });
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(status).toContainText('Paid without the order data');
  await expect(status).toContainText('Refund it or mark it settled in the back office.');
  // A block changes nothing: the data was never committed.
  await mineBlock();
  await page.waitForTimeout(3_000);
  await expect(status).toHaveAttribute('data-exception', 'data_missing');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('hand-over')).toHaveCount(0);
  await expect(page.getByTestId('underpaid')).toHaveCount(0);
  return txid;
}
