// Staff PINs from the back office and from My shift (docs/counter.md#staff-pins) in real
// Chromium: a manager's Users page lists the cashiers only, with Set PIN and none of the owner's
// controls, and the API refuses a manager the rest; a cashier sets their own PIN on My shift.
// Each PIN is then proven on the real lock route (GET /api/pos/lock, POST /api/auth/pin).
import { expect } from '@playwright/test';
import { testXpub } from '../helpers/keys';
import { sharedShopTest, type SharedApp } from './shared-shop';

const PASSWORD = 'counter pins e2e password';
const OWNER = { email: 'owner@pins-e2e.test', password: PASSWORD };
type Session = { Cookie: string; 'X-CSRF-Token': string };
interface World {
  app: SharedApp;
  ids: Record<'manager' | 'ana' | 'bo' | 'owner', string>;
  owner: Session;
  terminal: string;
}

async function login(url: string, email: string): Promise<Session> {
  const r = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(r.status).toBe(200);
  return { Cookie: r.headers.getSetCookie()[0].split(';')[0], 'X-CSRF-Token': (await r.json()).csrf_token };
}
const call = (url: string, s: Session | null, method: string, path: string, body?: unknown, cookie?: string) =>
  fetch(url + path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      'Content-Type': 'application/json',
      ...(s ?? {}),
      ...(cookie ? { Cookie: [s?.Cookie, cookie].filter(Boolean).join('; ') } : {}),
    },
  });

// A store of its own on the worker's shared app (tests/e2e/shared-shop.ts); its owner adds a
// manager and two cashiers and registers a terminal before the first test.
let world: World;
const test = sharedShopTest({ owner: OWNER, xpub: testXpub(37), name: 'Pin Café' }, async (app, shop) => {
  const owner: Session = { Cookie: shop.owner.cookie, 'X-CSRF-Token': shop.owner.csrf };
  const ids = { owner: '' } as World['ids'];
  for (const [k, role, name] of [
    ['manager', 'manager', 'Mia'],
    ['ana', 'cashier', 'Ana'],
    ['bo', 'cashier', 'Bo'],
  ] as const) {
    const r = await call(app.url, owner, 'POST', '/api/admin/users', { email: `${k}@pins-e2e.test`, name, password: PASSWORD, role });
    expect(r.status).toBe(201);
    ids[k] = (await r.json()).id;
  }
  const users = (await (await call(app.url, owner, 'GET', '/api/admin/users')).json()).users as { id: string; email: string }[];
  ids.owner = users.find((u) => u.email === OWNER.email)!.id;
  // A registered terminal, to prove the PINs on the real lock routes.
  const reg = await call(app.url, owner, 'POST', '/api/admin/terminals', { name: 'Front counter' });
  expect(reg.status).toBe(201);
  const terminal = reg.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('counter_terminal='))!;
  expect(terminal).toBeTruthy();
  world = { app, ids, owner, terminal };
});

async function pinWorks(w: World, userId: string, pin: string): Promise<number> {
  return (await call(w.app.url, null, 'POST', '/api/auth/pin', { user_id: userId, pin }, w.terminal)).status;
}

test("a manager sets a cashier's PIN in Users and sees nothing else there", async ({ page }) => {
  const w = world;
  test.setTimeout(120_000);
  await page.goto(w.app.url + '/login?next=%2Fadmin%2Fusers');
  await page.getByLabel('Email').fill('manager@pins-e2e.test');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Users' })).toBeVisible();

  // Cashiers only: no owner, no manager (not even itself), no roles, passwords, enabling or adding.
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(page.locator('main')).toContainText('ana@pins-e2e.test');
  await expect(page.locator('main')).toContainText('bo@pins-e2e.test');
  await expect(page.locator('main')).not.toContainText(OWNER.email);
  await expect(page.locator('main')).not.toContainText('manager@pins-e2e.test');
  const main = page.locator('main');
  for (const name of ['Set password', 'Disable', 'Enable', 'Add user']) await expect(main.getByRole('button', { name })).toHaveCount(0);
  await expect(main.getByRole('combobox')).toHaveCount(0); // no role selects

  const ana = rows.filter({ hasText: 'ana@pins-e2e.test' });
  await ana.getByRole('button', { name: 'Set PIN' }).click();
  await page.getByLabel('PIN for ana@pins-e2e.test').fill('1234'); // a straight run: refused
  await ana.getByRole('button', { name: 'Save PIN' }).click();
  await expect(main.getByRole('alert')).toContainText(/pin/i);
  await page.getByLabel('PIN for ana@pins-e2e.test').fill('2580');
  await ana.getByRole('button', { name: 'Save PIN' }).click();
  await expect(main.getByRole('status')).toHaveText('PIN set for ana@pins-e2e.test.');
  expect(await pinWorks(w, w.ids.ana, '2580')).toBe(200);

  // The server holds the line whatever the page shows: the manager's own session is refused
  // the owner's powers on users.
  const mgr = await login(w.app.url, 'manager@pins-e2e.test');
  expect((await call(w.app.url, mgr, 'GET', '/api/admin/users')).status).toBe(403);
  expect((await call(w.app.url, mgr, 'PATCH', `/api/admin/users/${w.ids.ana}`, { role: 'manager' })).status).toBe(403);
  expect((await call(w.app.url, mgr, 'PATCH', `/api/admin/users/${w.ids.ana}`, { password: 'a brand new password 77' })).status).toBe(403);
  expect((await call(w.app.url, mgr, 'PUT', `/api/admin/users/${w.ids.owner}/pin`, { pin: '4826' })).status).toBe(403);
  expect(
    (await call(w.app.url, mgr, 'POST', '/api/admin/users', { email: 'x@pins-e2e.test', password: PASSWORD, role: 'cashier' })).status,
  ).toBe(403);
});

test('a cashier sets their own PIN on My shift', async ({ page }) => {
  const w = world;
  test.setTimeout(120_000);
  await page.goto(w.app.url + '/login?next=%2Fpos%2Fshift');
  await page.getByLabel('Email').fill('bo@pins-e2e.test');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/pos\/shift$/);
  const form = page.getByRole('form', { name: 'My PIN' });
  await form.getByLabel('New PIN (4 to 8 digits)').fill('7777'); // one repeated digit: refused
  await form.getByRole('button', { name: 'Save my PIN' }).click();
  await expect(form.getByRole('alert')).toContainText(/pin/i);
  expect(await pinWorks(w, w.ids.bo, '7777')).toBe(401);
  await form.getByLabel('New PIN (4 to 8 digits)').fill('3917');
  await form.getByRole('button', { name: 'Save my PIN' }).click();
  await expect(form.getByRole('status')).toHaveText("Your PIN is set: use it on the till's lock screen.");
  const lock = await (await call(w.app.url, null, 'GET', '/api/pos/lock', undefined, w.terminal)).json();
  expect(lock.users.map((u: { name: string }) => u.name)).toContain('Bo');
  expect(await pinWorks(w, w.ids.bo, '3917')).toBe(200);
});
