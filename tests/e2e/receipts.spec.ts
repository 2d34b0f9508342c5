// Receipts end to end in real Chromium (docs/using-counter.md#reports-and-receipts), on a devnet app with embedded PGlite and a
// REAL SMTP server (smtp-server) in this process: the paid screen's "Email receipt" sends the
// receipt and shows the cashier success, and a refusal; the receipt page's lines (tax included)
// add up to its total, its time is in the store's zone, and its 58 mm and 80 mm print layouts
// fit their paper.
import { expect } from '@playwright/test';
import { fileScopedTest, signInToTill, startDevnetApp, paymentIdOf } from './fixtures';
import { startSmtp, type Mail } from '../helpers/smtp';
import { testXpub } from '../helpers/keys';
import { parseKoinu, formatKoinu } from '../../lib/money';
import type { AppServer } from '../helpers/app-server';

const ADMIN = { email: 'owner@receipts.example', password: 'counter e2e receipts password' };
const xpub = testXpub(11);
const LONG = 'Extraordinarily-long-single-word-artisanal-sourdough-loaf-with-seeds';

interface Stack {
  app: AppServer;
  inbox: Mail[];
}

const test = fileScopedTest(
  ['stack'],
  async (onStop) => {
    const inbox: Mail[] = [];
    const smtp = await startSmtp(inbox, {
      disabledCommands: ['STARTTLS', 'AUTH'],
      onRcptTo(addr, _s, cb) {
        if (addr.address.startsWith('refuse')) return cb(Object.assign(new Error('Mailbox refuse is unavailable'), { responseCode: 550 }));
        cb();
      },
    });
    onStop(() => smtp.close());
    const shop = await startDevnetApp({
      name: 'receipts',
      xpub,
      owner: ADMIN,
      env: { SMTP_TIMEOUT_MS: '3000' },
      seed: [
        {
          sql: `INSERT INTO store (id, name, timezone, smtp_url, smtp_from) VALUES (1, $1, 'America/New_York', $2, 'Receipts Café <receipts@cafe.example>')`,
          params: ['Receipts Café', smtp.url],
        },
        {
          sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          params: ['p-bread', 'BRD', LONG, '', parseKoinu('7.25').toString(), 1000, 1],
        },
        {
          sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          params: ['p-tea', 'TEA', 'Tea', '', parseKoinu('2.2').toString(), 700, 2],
        },
      ],
    });
    onStop(() => shop.dispose());
    const stack: Stack = { app: shop.app, inbox };
    return { stack };
  },
  { log: (v) => v.stack.app },
);

let paidId = '';

test('the paid screen emails the receipt, and shows the cashier a refusal', async ({ page, stack }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, stack.app.url, ADMIN);
  await page.getByRole('button', { name: `Add ${LONG}` }).click();
  await page.getByRole('button', { name: 'Add Tea' }).click();
  await page.getByRole('button', { name: 'Add Tea' }).click();
  await page.getByRole('button', { name: /^Charge Ð/ }).click();
  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('data-state', 'waiting');
  const uri = await page.getByTestId('payment-uri').innerText();
  paidId = paymentIdOf(uri);

  const phone = await page.context().newPage();
  await phone.goto(`${stack.app.url}/demo/wallet`);
  await expect(phone.getByTestId('wallet-balance')).toContainText('Ð');
  await phone.getByLabel('Payment URI').fill(uri);
  await phone.getByRole('button', { name: 'Open payment' }).click();
  await phone.getByRole('button', { name: /^Pay Ð/ }).click();
  await expect(status).toHaveAttribute('data-state', /accepted|confirmed/, { timeout: 30_000 });
  await phone.close();

  const form = page.getByRole('form', { name: 'Email receipt' });
  await form.getByPlaceholder('customer@example.com').fill('ann@example.com');
  await form.getByRole('button', { name: 'Email receipt' }).click();
  await expect(form.getByTestId('email-result')).toHaveText('Receipt sent to ann@example.com');
  await expect.poll(() => stack.inbox.length).toBe(1);
  expect(stack.inbox[0].to).toEqual(['ann@example.com']);
  expect(stack.inbox[0].raw).toMatch(/^Subject: .*Receipt(_| )from(_| )Receipts/m);
  expect(stack.inbox[0].raw).toMatch(/text\/plain/);
  expect(stack.inbox[0].raw).toMatch(/text\/html/);

  await form.getByPlaceholder('customer@example.com').fill('refuse@example.com');
  await form.getByRole('button', { name: 'Email receipt' }).click();
  const failed = form.getByRole('alert');
  await expect(failed).toContainText('Email not sent');
  await expect(failed).toContainText('Mailbox refuse is unavailable');
  expect(stack.inbox).toHaveLength(1);
});

test('the receipt adds up, shows the store zone, and fits 58 mm and 80 mm paper', async ({ page, stack }, testInfo) => {
  expect(paidId).not.toBe('');
  await signInToTill(page, stack.app.url, ADMIN);
  for (const paper of ['58', '80'] as const) {
    const mm = Number(paper);
    const px = Math.round((mm / 25.4) * 96);
    await page.setViewportSize({ width: px, height: 900 });
    await page.goto(`${stack.app.url}/pos/receipt/${paidId}?paper=${paper}`);
    const receipt = page.getByTestId('receipt');
    await expect(receipt).toHaveAttribute('data-paper', paper);
    // the lines (each with its tax) add up to the total on the receipt's face
    const totals = await page.getByTestId('receipt-line').evaluateAll((els) => els.map((e) => e.getAttribute('data-total')!));
    expect(totals.length).toBe(2);
    const sum = formatKoinu(totals.reduce((a, t) => a + parseKoinu(t, { allowNegative: true }), 0n));
    await expect(page.getByTestId('receipt-total')).toHaveText(`Ð ${sum}`);
    await expect(page.getByTestId('receipt-line').first()).toContainText('tax');
    await expect(page.getByTestId('receipt-time')).toContainText(/E[SD]T$/);
    for (const media of ['screen', 'print'] as const) {
      await page.emulateMedia({ media });
      const fit = await receipt.evaluate((el) => {
        const box = el.getBoundingClientRect();
        let worst = 0;
        for (const c of el.querySelectorAll('*')) worst = Math.max(worst, c.getBoundingClientRect().right - box.right);
        return {
          width: box.width,
          scroll: el.scrollWidth,
          client: el.clientWidth,
          overflow: worst,
          docScroll: document.documentElement.scrollWidth,
          docClient: document.documentElement.clientWidth,
        };
      });
      // printable width: the paper minus the @page side margins (58: 48 mm, 80: 72 mm)
      expect(fit.width, `${paper} ${media}`).toBeLessThanOrEqual(((mm - (paper === '58' ? 10 : 8)) / 25.4) * 96 + 0.5);
      expect(fit.scroll, `${paper} ${media}`).toBeLessThanOrEqual(fit.client);
      expect(fit.overflow, `${paper} ${media}`).toBeLessThanOrEqual(0.5);
      if (media === 'print') expect(fit.docScroll, `${paper} print page`).toBeLessThanOrEqual(fit.docClient);
    }
    await page.emulateMedia({ media: 'screen' });
    await page.screenshot({ path: testInfo.outputPath(`receipt-${paper}mm.png`), fullPage: true });
    const pdf = await page.pdf({ width: `${mm}mm`, preferCSSPageSize: true });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  }

  // The owner changes the store's zone in the back office; the receipt follows.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(`${stack.app.url}/admin/settings`);
  const zone = page.getByRole('form', { name: 'Time zone and email receipts' });
  await expect(zone.getByTestId('tz-in-force')).toHaveText('America/New_York');
  await zone.getByLabel(/Time zone/).fill('Mars/Olympus');
  await zone.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(zone.getByRole('alert')).toContainText('timezone');
  await zone.getByLabel(/Time zone/).fill('Asia/Tokyo');
  await zone.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(zone.getByTestId('tz-in-force')).toHaveText('Asia/Tokyo');
  await page.goto(`${stack.app.url}/pos/receipt/${paidId}`);
  await expect(page.getByTestId('receipt-time')).toContainText(/GMT\+9$/);
});
