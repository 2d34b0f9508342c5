// Reading the till's QR code as a phone camera would (docs/relay.md): the code on screen, its
// geometry, and what zbar (`zbarimg`, Debian's zbar-tools) reads from a half-size screenshot.
// Shared by tests/e2e/till-qr-decode.spec.ts (dogecoind) and tests/e2e/till-qr-devnet.spec.ts.
import { expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

export const ZBARIMG = '/usr/bin/zbarimg';

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
export async function checkShownQr(page: Page, file: string) {
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

/** Every QR code zbar reads from a half-size screenshot of the page as it is (the customer's display, a pairing code). */
export async function readScreenQr(page: Page, file: string): Promise<string[]> {
  return zbarRead(await halfSizeScreenshot(page), file);
}
