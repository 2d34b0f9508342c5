// Open tickets on the till (docs/counter.md#open-tickets) in real Chromium: the owner saves a
// sale as "Table 4" on a registered till and locks it; a cashier unlocks it with her PIN, finds
// the ticket under Open tickets, picks it up, adds to it and saves it in place. Someone else
// changes the ticket after she picked it up: her save is refused (409) and the till says so
// plainly, keeping her cart; picking it up again shows their version. Charging it sends its id
// (the payment's order_reference is the ticket's name), and the cash sale that pays it closes it.
// Axe finds nothing serious on the tickets list, light and dark.
import { expect } from '@playwright/test';
import { leaveWaitingSale, signInToTill, tillHydrated, registerTill } from './fixtures';
import { sharedShopTest } from './shared-shop';
import { testXpub } from '../helpers/keys';
import { cartLine } from './till-catalog-helpers';
import { axe, report } from './axe-check';

const OWNER = { email: 'owner@tickets.shop', password: 'counter e2e tickets password' };

interface TicketJson {
  id: string;
  name: string;
  cart: unknown;
  total: string;
  user: string;
  updated_at: string;
}
/** The fields of the answers this spec reads. */
type Answer = { id: string; currency?: string; tickets: TicketJson[] };

/** The owner's API session (password sign-in), for the setup and for "someone else". */
async function ownerApi(url: string) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  const headers = {
    'Content-Type': 'application/json',
    Cookie: login.headers.getSetCookie()[0].split(';')[0],
    'X-CSRF-Token': (await login.json()).csrf_token,
  };
  return async (method: string, path: string, body?: unknown) => {
    const r = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: (await r.json().catch(() => ({}))) as Answer };
  };
}

// A store of this file's own on the worker's shared devnet app (tests/e2e/shared-shop.ts), whose
// rate is a fixed 0.1 USD a DOGE.
const test = sharedShopTest({ owner: OWNER, xpub: testXpub(47), name: 'Tickets Café' }, async (app) => {
  const call = await ownerApi(app.url);
  expect((await call('PATCH', '/api/admin/settings', { pricing_currency: 'USD' })).status).toBe(200);
  await expect.poll(async () => (await call('GET', '/api/v1/rates')).body?.currency, { timeout: 20_000 }).toBe('USD');
  expect((await call('POST', '/api/admin/products', { sku: 'LAT', name: 'Latte', price: '4.00' })).status).toBe(201);
  expect((await call('POST', '/api/admin/products', { sku: 'CRO', name: 'Croissant', price: '2.50' })).status).toBe(201);
  const ana = await call('POST', '/api/admin/users', {
    email: 'ana@tickets.shop',
    name: 'Ana',
    password: OWNER.password,
    role: 'cashier',
  });
  expect(ana.status).toBe(201);
  expect((await call('PUT', `/api/admin/users/${ana.body.id}/pin`, { pin: '2580' })).status).toBe(204);
});

test('Table 4: saved, locked, picked up by another cashier, edited, a stale save refused, charged and closed', async ({ page, app }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInToTill(page, app.url, OWNER);
  await registerTill(page, 'Front counter');
  await tillHydrated(page);

  // The owner rings up two lattes and saves them as Table 4: the cart empties.
  await page.getByRole('button', { name: 'Add Latte' }).click();
  await page.getByRole('button', { name: 'Add Latte' }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('$8.00');
  await page.getByRole('button', { name: 'Save sale' }).click();
  const save = page.getByRole('dialog', { name: 'Save sale' });
  await save.getByLabel('Ticket name').fill('Table 4');
  await save.getByRole('button', { name: 'Save' }).click();
  await expect(save).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “Table 4”' })).toBeVisible();
  await expect(page.getByTestId('cart-line')).toHaveCount(0);

  // The tickets list, in both themes.
  await page.getByRole('button', { name: 'Open tickets' }).click();
  const list = page.getByRole('dialog', { name: 'Open tickets' });
  await expect(list.getByTestId('ticket-row')).toHaveCount(1);
  await expect(list.getByTestId('ticket-row')).toContainText('Table 4');
  await expect(list.getByTestId('ticket-row')).toContainText('$8.00');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    const found = await axe(page, `tickets list (${theme})`, theme);
    expect(found, report(found)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await list.getByRole('button', { name: 'Close' }).click();

  // Lock; Ana unlocks with her PIN and picks Table 4 up.
  await page.getByRole('button', { name: 'Lock' }).click();
  await expect(page).toHaveURL(/\/pos\/lock$/);
  await expect(page.locator('[data-hydrated]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Ana' }).click();
  await page.getByLabel('PIN').fill('2580');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByTitle('Signed in')).toHaveText('Ana');
  await tillHydrated(page);
  await page.getByRole('button', { name: 'Open tickets' }).click();
  await page.getByRole('button', { name: 'Pick up Table 4' }).click();
  await expect(page.getByRole('dialog', { name: 'Open tickets' })).toHaveCount(0);
  await expect(page.getByTestId('held-ticket')).toHaveText('Ticket: Table 4');
  await expect(page.getByLabel('Latte count')).toHaveText('2');

  // She adds a croissant and saves it in place (no name asked): a PUT with the version she read.
  await page.getByRole('button', { name: 'Add Croissant' }).click();
  const put = page.waitForResponse((r) => /\/api\/pos\/tickets\/tk_/.test(r.url()) && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Save sale' }).click();
  expect((await put).status()).toBe(200);
  await expect(page.getByTestId('cart-line')).toHaveCount(0);
  const call = await ownerApi(app.url);
  const saved = (await call('GET', '/api/pos/tickets')).body.tickets;
  expect(saved).toHaveLength(1);
  expect(saved[0]).toMatchObject({ name: 'Table 4', total: '10.50', user: 'Ana' });

  // She picks it up again; meanwhile someone else changes it. Her save is refused, said plainly.
  await page.getByRole('button', { name: 'Open tickets' }).click();
  await page.getByRole('button', { name: 'Pick up Table 4' }).click();
  await expect(cartLine(page, 'Croissant')).toHaveCount(1);
  const theirs = await call('PUT', `/api/pos/tickets/${saved[0].id}`, {
    cart: saved[0].cart,
    total: '10.50',
    updated_at: saved[0].updated_at,
  });
  expect(theirs.status).toBe(200);
  await page.getByRole('button', { name: 'Add Croissant' }).click();
  const stale = page.waitForResponse((r) => /\/api\/pos\/tickets\/tk_/.test(r.url()) && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Save sale' }).click();
  expect((await stale).status()).toBe(409);
  await expect(page.getByRole('alert').filter({ hasText: 'was changed by someone else' })).toBeVisible();
  await expect(page.getByLabel('Croissant count')).toHaveText('2'); // her cart is kept
  await page.getByRole('button', { name: 'Open tickets' }).click();
  await page.getByRole('button', { name: 'Pick up Table 4' }).click();
  await expect(page.getByLabel('Croissant count')).toHaveText('1'); // their version

  // Charging it sends its id; the payment is named after it. Leaving that payment unpaid keeps it open.
  const created = page.waitForResponse((r) => r.url().endsWith('/api/v1/payments') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Charge $10.50' }).click();
  const res = await created;
  expect(res.status()).toBe(201);
  expect(res.request().postDataJSON().ticket_id).toBe(saved[0].id);
  expect((await res.json()).payment.order_reference).toBe('Table 4');
  await leaveWaitingSale(page);
  await expect(page.getByTestId('held-ticket')).toHaveCount(0);

  // Picked up once more and paid in cash: the ticket closes.
  await page.getByRole('button', { name: 'Open tickets' }).click();
  await page.getByRole('button', { name: 'Pick up Table 4' }).click();
  await page.getByRole('button', { name: 'Cash', exact: true }).click();
  await page.getByLabel('Cash received').fill('20');
  await page.getByRole('button', { name: 'Complete cash sale' }).click();
  await expect(page).toHaveURL(/\/pos\/receipt\/[A-Za-z0-9_-]+$/);
  expect((await call('GET', '/api/pos/tickets')).body.tickets).toEqual([]);
});
