// Redirects after sign-in stay on this origin in a real browser (docs/security.md): Chromium strips a
// tab, CR or LF from a URL, so a `next` of "/\t/evil.example/phish" used to land the merchant
// on http://evil.example/phish right after typing the password.
// The merchant is the owner of a store of this file's own on the worker's shared app
// (tests/e2e/shared-shop.ts).
import { expect } from '@playwright/test';
import { testXpub } from '../helpers/keys';
import { sharedShopTest } from './shared-shop';

const EMAIL = 'owner@redirect.test';
const PASSWORD = 'a strong admin password';

const test = sharedShopTest({ owner: { email: EMAIL, password: PASSWORD }, xpub: testXpub(211), name: 'Redirect Shop' });

async function signIn(page: import('@playwright/test').Page, url: string) {
  await page.goto(url);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

for (const next of [
  '%2F%09%2Fevil.example%2Fphish',
  '%2F%0A%2Fevil.example%2Fphish',
  '%2F%0D%2Fevil.example%2Fphish',
  '%2F%2Fevil.example',
  '%2F%5Cevil.example',
]) {
  test(`next=${next} lands on this origin`, async ({ page, app }) => {
    await signIn(page, `${app.url}/login?next=${next}`);
    await expect(page).toHaveURL(new RegExp(`^${app.url.replace(/[.]/g, '\\.')}/admin`));
    expect(new URL(page.url()).host).toBe(new URL(app.url).host);
    await page.context().clearCookies();
  });
}

test('a same-origin next is followed', async ({ page, app }) => {
  await signIn(page, `${app.url}/login?next=${encodeURIComponent('/admin/settings')}`);
  await expect(page).toHaveURL(`${app.url}/admin/settings`);
});
