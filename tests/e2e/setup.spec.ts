// First run in real Chromium: no account yet, so /login sends the merchant to /setup; the
// one-time code from the server log creates the owner, who lands in the back office signed in.
import { test as base, expect } from '@playwright/test';
import { startApp, type AppServer } from '../helpers/app-server';

// Its own fresh app: the shared fixture's app must stay without accounts for home.spec.
const test = base.extend<{ app: AppServer }>({
  // Playwright's `use` callback is named `provide`: ESLint's React hooks rules take `use` for React's hook.
  app: async ({}, provide) => {
    const app = await startApp();
    await provide(app);
    await app.stop();
  },
});

test('the first owner is created through /setup with the code from the server log', async ({ page, app }) => {
  await page.goto(`${app.url}/login`);
  await expect(page).toHaveURL(/\/setup$/);
  const line = app
    .logs()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .find((l) => l.setup_code);
  expect(line?.setup_code).toMatch(/^[\w-]{12}$/);

  await page.getByLabel('Setup code').fill('wrong-code-1');
  await page.getByLabel('Your name').fill('Olive');
  await page.getByLabel('Email').fill('olive@shop.test');
  await page.getByLabel('Password').fill('a long owner password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.locator('.form-error')).toHaveText('the setup code is wrong');

  await page.getByLabel('Setup code').fill(line.setup_code);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/admin/);
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'counter_session');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  // Setup is closed now; signing out and back in works with the new account.
  await page.goto(`${app.url}/setup`);
  await expect(page).toHaveURL(/\/login|\/admin/);
  await page.context().clearCookies();
  await page.goto(`${app.url}/login`);
  await page.getByLabel('Email').fill('olive@shop.test');
  await page.getByLabel('Password').fill('a long owner password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin/);
});
