// Registered tills and the lock screen (docs/counter.md#terminals,
// docs/counter.md#the-lock-screen-and-pin-sign-in) in real Chromium: an owner uses the browser
// as a till (Till name, Register), locks it, a cashier unlocks it with a PIN (a wrong PIN said
// plainly), the PIN session shows no back-office link, the till locks itself when idle
// (till_lock_sec), a second, unregistered browser never sees the lock screen, and a Lock that
// cannot reach the server blocks the till until it can.
import { expect } from '@playwright/test';
import { signInToTill, tillHydrated, openTillMenu, registerTill } from './fixtures';
import { patchStoreSettings, sessionCall } from '../helpers/hosted-stores';
import { sharedShopTest } from './shared-shop';
import { testXpub } from '../helpers/keys';

const ADMIN = { email: 'owner@lock.test', password: 'counter lock e2e password' };
const xpub = testXpub(131); // not 31: till-qr-devnet's store on the same shared app has that wallet
const LOCK_SEC = 6;

// A store of its own on the worker's shared app (tests/e2e/shared-shop.ts) that locks its tills
// after LOCK_SEC idle, and a cashier named Ana with a PIN, made through the back-office API.
const test = sharedShopTest({ owner: ADMIN, xpub, name: 'Lock Café' }, async (app, shop) => {
  await patchStoreSettings(app.url, shop.owner, { till_lock_sec: LOCK_SEC });
  const ana = await sessionCall<{ id: string }>(app.url, shop.owner, 'POST', '/api/admin/users', {
    email: 'ana@lock.test',
    name: 'Ana',
    password: ADMIN.password,
    role: 'cashier',
  });
  expect(ana.status).toBe(201);
  const pin = await sessionCall(app.url, shop.owner, 'PUT', `/api/admin/users/${ana.body.id}/pin`, { pin: '2580' });
  expect(pin.status).toBe(204);
});

test('register a till, lock it, unlock with a PIN, and lock again when idle', async ({ app, page, browser }) => {
  test.setTimeout(120_000);
  await signInToTill(page, app.url, ADMIN);

  await registerTill(page, 'Front counter');
  await tillHydrated(page); // the reloaded till
  await openTillMenu(page); // registered: the Menu no longer offers it
  await expect(page.getByRole('button', { name: 'Use this device as a till' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Lock' }).click();
  await expect(page).toHaveURL(/\/pos\/lock$/);
  await expect(page.getByRole('heading', { name: /Front counter/ })).toBeVisible();
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Ana' }).click();
  await page.getByLabel('PIN').fill('1357');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong PIN.' })).toBeVisible();
  await page.getByLabel('PIN').fill('2580');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await openTillMenu(page);
  await expect(page.getByTitle('Signed in')).toHaveText('Ana');
  await expect(page.getByRole('link', { name: 'Back office' })).toHaveCount(0);
  // A PIN session is sent to the password form by the back office.
  const admin = await page.request.get(app.url + '/admin', { maxRedirects: 0 });
  expect(admin.status()).toBe(307);
  expect(admin.headers().location).toMatch(/\/login\?next=%2Fadmin/);

  // Untouched for till_lock_sec, the till locks itself.
  await expect(page).toHaveURL(/\/pos\/lock$/, { timeout: (LOCK_SEC + 10) * 1000 });

  // Another browser, never registered, gets the password form, not the lock screen.
  const other = await browser.newContext();
  const p2 = await other.newPage();
  await p2.goto(app.url + '/pos/lock');
  await expect(p2).toHaveURL(/\/login/);
  await expect(p2.getByRole('button', { name: 'Ana' })).toHaveCount(0);
  await other.close();
});

// Lock pressed while the network is down (docs/security.md, "Lock while offline"): the sign-out
// cannot reach the server, so the session is still live; the till must not look locked and must
// not let anyone sell as the cashier. It blocks the till ("Can't lock: offline, retrying"), has
// already forgotten its offline copy, and shows the lock screen once the sign-out went through.
test('Lock while offline blocks the till until the sign-out goes through, by hand and when idle', async ({ app, page }) => {
  test.setTimeout(120_000);
  await signInToTill(page, app.url, ADMIN);
  await registerTill(page, 'Back counter');
  await tillHydrated(page);

  /** The session cookie the browser holds now, and whether the server still honours it. */
  const session = async () => (await page.context().cookies()).find((c) => c.name === 'counter_session')?.value ?? '';
  const live = async (token: string) =>
    (await fetch(`${app.url}/api/auth/me`, { headers: { Cookie: `counter_session=${token}` } })).status === 200;
  /** Whether a tap at the centre of `name`'s button lands on the locking modal instead. */
  const tapBlocked = (name: string) =>
    page
      .getByRole('button', { name, includeHidden: true })
      .first()
      .evaluate((b) => {
        const r = b.getBoundingClientRect();
        return !!document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest('[data-testid="till-locking"]');
      });

  const offline = () => page.route('**/api/auth/logout', (r) => r.abort('internetdisconnected'));
  async function lockedOffline(owner: string, press: () => Promise<void>, waitMs?: number): Promise<void> {
    await press();
    const blocked = page.getByTestId('till-locking');
    await expect(blocked).toContainText("Can't lock: offline, retrying", { timeout: waitMs });
    // Not shown as locked, and nothing on the till can be reached: the session is still live.
    await expect(page).toHaveURL(/\/pos$/);
    expect(await live(owner)).toBe(true);
    expect(await tapBlocked('Charge')).toBe(true);
    expect(await tapBlocked('Lock')).toBe(true);
    await page.keyboard.press('Escape');
    await expect(blocked).toBeVisible();
    // The offline copy is already forgotten: the kept till's marker is gone.
    expect((await page.context().cookies()).some((c) => c.name === 'counter_till' && c.value)).toBe(false);
    // The network is back: the retried sign-out goes through, then the lock screen.
    await page.unroute('**/api/auth/logout');
    await expect(page).toHaveURL(/\/pos\/lock$/);
    expect(await live(owner)).toBe(false);
  }

  await offline();
  await lockedOffline(await session(), () => page.getByRole('button', { name: 'Lock' }).click());

  // The idle lock takes the same path.
  await expect(page.getByRole('heading', { name: /Back counter/ })).toBeVisible();
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Ana' }).click();
  await page.getByLabel('PIN').fill('2580');
  await offline(); // before the till opens, so its idle timer cannot beat it
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByTitle('Signed in')).toHaveText('Ana');
  await tillHydrated(page);
  await lockedOffline(await session(), async () => undefined, (LOCK_SEC + 10) * 1000);
});
