// The wallet check page (docs/wallet-check.md) in real Chromium on the devnet chain, at a phone
// (390×844) and a desktop (1280×800): start a run, step through every case with Next while zbar
// reads each QR code from a screenshot, then finish and read the report; axe-core finds no
// serious or critical violation. With WALLET_CHECK_DOCS_SCREENSHOT=1 the desktop run's first case
// is copied over docs/wallet-check.png.
import { expect } from '@playwright/test';
import { copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sharedAppTest } from './shared-shop';
import { zbarRead } from './qr-read';
import { axe, report } from './axe-check';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

// The wallet check belongs to no store: the worker's shared devnet app serves it (tests/e2e/shared-shop.ts).
const test = sharedAppTest();
test.describe.configure({ mode: 'serial' });

for (const size of SIZES) {
  test(`a run at ${size.width}×${size.height}: every case's QR code, then the report`, async ({ app, page }, testInfo) => {
    await page.setViewportSize(size);
    await page.goto(`${app.url}/wallet-check`);
    await expect(page.getByRole('heading', { level: 1, name: 'Wallet check' })).toBeVisible();
    await page.getByRole('button', { name: 'Start a run' }).click();
    await expect(page.getByRole('heading', { name: /^Case 1 of 14/ })).toBeVisible();
    expect(page.url()).toMatch(/\/wallet-check\?run=wcr_/);
    expect(report(await axe(page, `wallet-check ${size.width}`))).toBe('none');
    const shot = testInfo.outputPath(`wallet-check-${size.width}.png`);
    await page.screenshot({ path: shot });
    if (process.env.WALLET_CHECK_DOCS_SCREENSHOT && size.width === 1280)
      copyFileSync(shot, resolve(__dirname, '../../docs/wallet-check.png'));
    for (let i = 1; i <= 14; i++) {
      await expect(page.getByRole('heading', { name: new RegExp(`^Case ${i} of 14`) })).toBeVisible();
      const img = page.getByRole('img', { name: /^QR code of the case/ });
      const uri = (await img.getAttribute('data-uri'))!;
      expect(uri).toMatch(/^(dogecoin|dogeconnect):/);
      const read = zbarRead(await img.screenshot(), join(tmpdir(), `wallet-check-${size.width}-${i}.png`));
      expect(read, `zbar reads case ${i}`).toEqual([uri]);
      if (i < 14) await page.getByRole('button', { name: 'Next' }).click();
    }
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(14);
    await page.getByRole('button', { name: 'Finish the run' }).click();
    await expect(page.getByText('The run is finished.')).toBeVisible();
    await expect(page.locator('tbody tr[data-case="plain"]')).toContainText('never paid');
    await expect(page.locator('tbody tr[data-case="wrong_h"]')).toContainText('pass');
    expect(report(await axe(page, `wallet-check report ${size.width}`))).toBe('none');
  });
}
