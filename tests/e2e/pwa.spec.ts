// The till as an installable web app (docs/using-counter.md#installing-the-till-as-an-app-and-when-the-network-drops)
// in real Chromium, on the devnet chain: the manifest and its icons; the service worker installs from the till and keeps its
// page; offline, a reload shows the kept till, which says it is offline, refuses to charge and
// shows a sale that was waiting (and was paid meanwhile) as unknown, never as paid; back online
// it recovers by itself. The service worker never stores payment state.
import { expect, type Page } from '@playwright/test';
import { fileScopedTest, signInToTill, tillHydrated, startDevnetApp, leaveWaitingSale, paymentIdOf } from './fixtures';
import { randomBytes } from 'node:crypto';
import { testXpub } from '../helpers/keys';
import { parseKoinu } from '../../lib/money';
import type { AppServer } from '../helpers/app-server';

const ADMIN = { email: 'owner@pwa.test', password: 'counter pwa e2e password' };
const API_KEY = 'pwa_' + randomBytes(24).toString('base64url');
const xpub = testXpub(21);

/** The app, which a test may stop (the shop's server gone, not just the browser offline) and start again on the same port and data. */
const test = fileScopedTest(
  ['srv'],
  async (onStop) => {
    const srv = await startDevnetApp({
      name: 'pwa',
      xpub,
      owner: ADMIN,
      env: { BOOTSTRAP_API_KEY: API_KEY },
      seed: [
        { sql: `INSERT INTO store (id, name) VALUES (1, $1)`, params: ['Offline Café'] },
        {
          sql: 'INSERT INTO product (id, sku, name, icon, price, tax_rate_bp, sort, archived) VALUES ($1, $2, $3, $4, $5, 0, 0, FALSE)',
          params: ['p-1', 'TEA', 'Tea', '/pos-icons/tea.svg', parseKoinu('4').toString()],
        },
      ],
    });
    // srv.app is the app running now: srv.restart() replaces it.
    onStop(() => srv.dispose());
    return { srv };
  },
  { log: (v) => v.srv.app },
);

async function vendor(app: AppServer, method: string, path: string, body?: unknown) {
  const r = await fetch(app.url + path, {
    method,
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(b: Buffer): [number, number] {
  expect(b.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

const charge = (page: Page) => page.getByRole('button', { name: /^Charge Ð/ });
const status = (page: Page) => page.getByTestId('payment-status');
const keptTill = (page: Page) => page.evaluate(async () => (await (await caches.match('/pos'))?.text()) ?? '');

test('the manifest names the till, standalone, with real 192, 512 and maskable PNG icons; /sw.js is a script', async ({ page, srv }) => {
  const { app } = srv;
  await page.goto(app.url + '/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const r = await fetch(app.url + href);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/application\/manifest\+json/);
  const m = await r.json();
  expect(m).toMatchObject({ name: expect.stringContaining('Counter'), short_name: 'Counter', start_url: '/pos', display: 'standalone' });
  expect(m.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(m.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  const seen = new Set<string>();
  for (const icon of m.icons as { src: string; sizes: string; type: string; purpose?: string }[]) {
    const res = await fetch(app.url + icon.src);
    expect(res.status, icon.src).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const [w, h] = pngSize(Buffer.from(await res.arrayBuffer()));
    expect(`${w}x${h}`, icon.src).toBe(icon.sizes);
    seen.add(`${icon.sizes} ${icon.purpose ?? 'any'}`);
  }
  expect([...seen].sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  const sw = await fetch(app.url + '/sw.js');
  expect(sw.status).toBe(200);
  expect(sw.headers.get('content-type')).toMatch(/javascript/);
  // the till's theme colour for the browser's own bar, in both schemes
  expect(await page.locator('meta[name="theme-color"]').count()).toBe(2);
});

test('offline: the kept till loads, says it is offline and refuses to charge; a sale paid meanwhile is never shown as paid; back online it recovers', async ({
  page,
  srv,
  context,
  browser,
}) => {
  const app = srv.app;
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, ADMIN);
  // the service worker installs from the till and keeps its page
  const sw = () =>
    page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return { state: reg.active?.state, scope: reg.scope, script: reg.active?.scriptURL };
    });
  await expect.poll(sw).toEqual({ state: 'activated', scope: `${app.url}/pos`, script: `${app.url}/sw.js` });
  await expect.poll(() => keptTill(page), { timeout: 15_000 }).toContain('Offline Café');

  // a sale that waits: charged, left, and the till reloaded so its kept copy lists it as waiting
  await page.getByRole('button', { name: 'Add Tea' }).click();
  await charge(page).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  const uri = await page.getByTestId('payment-uri').innerText();
  const id = paymentIdOf(uri);
  await leaveWaitingSale(page);
  await page.reload();
  const row = page.locator(`[data-testid=recent-sale][data-id="${id}"]`);
  await expect(row).toHaveAttribute('data-state', 'unpaid');
  await expect.poll(() => keptTill(page)).toContain(id);
  await tillHydrated(page);
  await row.getByRole('button', { name: /^Reopen/ }).click();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');

  // the shop's network drops; the customer pays from their own phone meanwhile
  await context.setOffline(true);
  await expect(status(page)).toHaveAttribute('data-state', 'unknown', { timeout: 5_000 });
  const phoneCtx = await browser.newContext();
  const phone = await phoneCtx.newPage();
  await phone.goto(`${app.url}/demo/wallet`);
  await phone.getByLabel('Payment URI').fill(uri);
  await phone.getByRole('button', { name: 'Open payment' }).click();
  await phone.getByRole('button', { name: /^Pay Ð/ }).click();
  await expect(phone.getByTestId('payment-status')).toHaveAttribute('data-status', 'accepted', { timeout: 30_000 });
  await phoneCtx.close();
  expect((await vendor(app, 'GET', `/api/v1/payments/${id}`)).body.status).toBe('accepted');
  await page.waitForTimeout(1_500); // time for a stale update to show, if one could
  await expect(status(page)).toHaveAttribute('data-state', 'unknown');
  await expect(page.getByTestId('hand-over')).toHaveCount(0);

  // the shop's server goes away too: whatever the till shows now can only come from its kept copy
  const stopped = srv.app.stop();
  // offline reload: the kept till, offline, refusing to charge, the paid sale's state unknown
  await stopped;
  const res = await page.reload();
  expect(res?.fromServiceWorker()).toBe(true);
  await tillHydrated(page, 15_000); // the kept till
  await expect(page.getByRole('heading', { name: /^Cart/ })).toBeVisible();
  const offline = page.getByTestId('till-offline');
  await expect(offline).toBeVisible();
  await expect(offline).toHaveAttribute('role', 'alert');
  await expect(offline).toContainText('cannot take a payment');
  await expect(row).toHaveAttribute('data-state', 'unknown');
  await expect(row).not.toContainText(/paid|accepted|confirmed/i);
  await expect(page.locator('[data-state="accepted"], [data-state="confirmed"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Add Tea' }).click();
  await expect(charge(page)).toBeDisabled();
  await expect(charge(page)).toHaveAttribute('aria-describedby', 'till-offline');

  // the service worker kept the till and its files, never a payment, event stream or relay answer
  const kept = await page.evaluate(async () => {
    const out: string[] = [];
    for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) out.push(new URL(r.url).pathname);
    return out;
  });
  expect(kept).toContain('/pos');
  expect(kept.some((p) => p.startsWith('/_next/static/'))).toBe(true);
  expect(kept.filter((p) => /^\/(api|relay|dc|demo|invoices)\/|^\/pos\/receipt/.test(p))).toEqual([]);

  // back online, the server back: the till recovers by itself, with the true state
  await srv.restart();
  await context.setOffline(false);
  await expect(offline).toHaveCount(0, { timeout: 15_000 });
  await expect(row).toHaveAttribute('data-state', /^(accepted|confirmed)$/, { timeout: 15_000 });
  await expect(charge(page)).toBeEnabled();
});
