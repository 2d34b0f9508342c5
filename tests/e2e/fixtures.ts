import { test as base, expect, type Page } from '@playwright/test';
import { startApp, type AppServer } from '../helpers/app-server';

/** One app server per worker, on a free port, with its own data directory. */
export const test = base.extend<object, { app: AppServer }>({
  app: [
    async ({}, use) => {
      const app = await startApp();
      await use(app);
      await app.stop();
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';

/**
 * The till has hydrated: its sale controls are live. They render disabled until then
 * (app/(pos)/pos/use-hydrated.ts), so Playwright's clicks wait for them anyway; this also makes
 * sure keyboard input and the till's own polls are running.
 */
export async function tillHydrated(page: Page, timeout?: number): Promise<void> {
  await expect(page.locator('[data-hydrated]')).toHaveCount(1, { timeout });
}

export interface SignIn {
  email: string;
  password: string;
}

/**
 * Signs `who` in on the way to the till (/login?next=/pos) and waits for the hydrated till, and
 * (unless `ready: false`) until it can take money. `labels`: the sign-in form's labels in
 * another language.
 */
export async function signInToTill(page: Page, url: string, who: SignIn, opts: { ready?: boolean; labels?: { email: string; password: string; submit: string } } = {}): Promise<void> {
  const labels = opts.labels ?? { email: 'Email', password: 'Password', submit: 'Sign in' };
  await page.goto(url + '/login?next=%2Fpos');
  await page.getByLabel(labels.email).fill(who.email);
  await page.getByLabel(labels.password).fill(who.password);
  await page.getByRole('button', { name: labels.submit }).click();
  await expect(page).toHaveURL(/\/pos$/);
  if (opts.ready !== false) await expect(page.getByTestId('till-not-ready')).toHaveCount(0, { timeout: 30_000 });
  await tillHydrated(page);
}
