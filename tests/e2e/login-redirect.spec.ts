// Redirects after sign-in stay on this origin in a real browser (docs/security.md): Chromium strips a
// tab, CR or LF from a URL, so a `next` of "/\t/evil.example/phish" used to land the merchant
// on http://evil.example/phish right after typing the password.
import { expect } from '@playwright/test';
import { appTest } from './fixtures';

const EMAIL = 'owner@shop.test';
const PASSWORD = 'a strong admin password';

const test = appTest({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD }, undefined, { timeout: 180_000 });

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
