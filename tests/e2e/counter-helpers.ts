// Steps of a day at the counter shared by counter-day.spec.ts, cafe-day.spec.ts and
// till-qr-devnet.spec.ts (docs/counter.md): the owner's API session, pairing a customer display to
// a registered till, unlocking the till with a PIN, the back office signed in with a password,
// and the devnet chain's ordinary wallet and block on request.
import { expect, type Browser, type Page } from '@playwright/test';
import { tillHydrated, type SignIn } from './fixtures';

/** A JSON answer read field by field (a wrong shape fails the test's own expectations). */
export type Answer = { readonly [key: string]: Answer } & { readonly [index: number]: Answer };

export interface Api {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Answer }>;
}

/** `who`'s API session (password sign-in, with its CSRF token). */
export async function sessionApi(url: string, who: SignIn): Promise<Api> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(who),
  });
  expect(login.status).toBe(200);
  const headers = {
    'Content-Type': 'application/json',
    Cookie: login.headers.getSetCookie()[0].split(';')[0],
    'X-CSRF-Token': (await login.json()).csrf_token,
  };
  return {
    async call(method, path, body) {
      const r = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: (await r.json().catch(() => null)) as Answer };
    },
  };
}

/** Cashiers with their PINs, added by the owner's API session. */
export async function addCashiers(api: Api, domain: string, password: string, pins: Record<string, string>): Promise<void> {
  for (const [name, pin] of Object.entries(pins)) {
    const user = await api.call('POST', '/api/admin/users', { email: `${name.toLowerCase()}@${domain}`, name, password, role: 'cashier' });
    expect(user.status).toBe(201);
    expect((await api.call('PUT', `/api/admin/users/${user.body.id}/pin`, { pin })).status).toBe(204);
  }
}

/** A display context paired to the till by typing the code its "Customer display" dialog shows; it greets with the store's name. */
export async function pairDisplay(browser: Browser, till: Page, url: string, storeName: string): Promise<Page> {
  await till.getByRole('button', { name: 'Customer display' }).click();
  const dialog = till.getByRole('dialog', { name: 'Pair a customer display' });
  const code = (await dialog.getByTestId('pairing-code').textContent())!;
  expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const display = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await display.goto(url + '/display');
  await display.getByLabel('Pairing code').fill(code);
  await display.getByRole('button', { name: 'Pair' }).click();
  await expect(display.getByTestId('display-welcome')).toBeVisible();
  await expect(display.getByRole('heading', { name: storeName })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  return display;
}

/** The till's lock screen (of the till `tillName`): `name` taps their button, types `pin` and is on a ready till. */
export async function unlockAs(till: Page, tillName: string, name: string, pin: string): Promise<void> {
  await expect(till).toHaveURL(/\/pos\/lock$/);
  await expect(till.getByRole('heading', { name: new RegExp(tillName) })).toBeVisible();
  await tillHydrated(till);
  await till.getByRole('button', { name }).click();
  await till.getByLabel('PIN').fill(pin);
  await till.getByRole('button', { name: 'Unlock' }).click();
  await expect(till).toHaveURL(/\/pos$/);
  await expect(till.getByTitle('Signed in')).toHaveText(name);
  await expect(till.getByTestId('till-not-ready')).toHaveCount(0, { timeout: 30_000 });
  await tillHydrated(till);
}

/** A new context signed in to the back office with `who`'s password, on `path`. */
export async function backOffice(browser: Browser, url: string, who: SignIn, path: string): Promise<Page> {
  const office = await (await browser.newContext()).newPage();
  await office.goto(`${url}/login?next=${encodeURIComponent(path)}`);
  await office.getByLabel('Email').fill(who.email);
  await office.getByLabel('Password').fill(who.password);
  await office.getByRole('button', { name: 'Sign in' }).click();
  await expect(office).toHaveURL(new RegExp(`${path.replace(/[/]/g, '\\/')}$`));
  return office;
}

/** The ordinary wallet pays: the devnet demo wallet sends a plain tx of `amount` DOGE to `address`; its txid. */
export async function walletPays(url: string, address: string, amount: string): Promise<string> {
  const r = await fetch(`${url}/demo/api/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ address, amount }),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  return ((await r.json()) as { txid: string }).txid;
}

/** One block on the devnet chain, on request. */
export async function mineBlock(url: string): Promise<void> {
  const r = await fetch(`${url}/demo/api/mine`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"blocks":1}' });
  expect(r.status, await r.clone().text()).toBe(200);
}
