// Checks of the till's header (app/(pos)/pos/till-header.tsx) shared by the layout specs: nothing
// in it runs off the viewport, and its Menu holds the controls a cashier does not use every sale.
import { expect, type Page } from '@playwright/test';
import type { SeedStatement } from './fixtures';
import { seedHash } from '../helpers/seed-password';

/** Every box inside the header (and the open Menu's panel) lies within the viewport, and the header does not scroll sideways. */
export async function expectHeaderFits(page: Page, what: string): Promise<void> {
  const out = await page.evaluate(() => {
    const header = document.querySelector('header')!;
    const vw = document.documentElement.clientWidth;
    const bad: string[] = [];
    for (const el of [header, ...header.querySelectorAll<HTMLElement>('*')]) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue; // hidden: the closed Menu, an empty alert
      if (r.left < -0.5 || r.right > vw + 0.5)
        bad.push(`${el.tagName}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)} > ${vw}`);
    }
    if (header.scrollWidth > header.clientWidth + 1) bad.push(`header scrolls: ${header.scrollWidth} > ${header.clientWidth}`);
    return bad;
  });
  expect(out, `${what}: header boxes outside the viewport`).toEqual([]);
}

/** The store's name in the header is shown whole (not cut with an ellipsis). */
export async function expectStoreNameWhole(page: Page, name: string): Promise<void> {
  const shown = page.getByRole('banner').getByRole('heading', { level: 1 }).locator('span').last();
  await expect(shown).toHaveText(name);
  expect(await shown.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), `"${name}" is cut`).toBe(true);
}

/** The Menu's controls, by their accessible names; none shows until the Menu opens. */
export function menuControls(page: Page, userName: string) {
  return [
    page.getByRole('link', { name: 'Back office' }),
    page.getByRole('link', { name: 'My shift' }),
    page.getByRole('button', { name: /^Sound (on|off)$/ }),
    page.getByRole('combobox', { name: 'Theme' }),
    page.getByRole('combobox', { name: 'Language' }),
    page.getByRole('button', { name: 'Use this device as a till' }),
    page.getByTitle('Signed in').filter({ hasText: userName }),
    page.getByRole('button', { name: 'Sign out' }),
  ];
}

/**
 * Seed rows (after store 1's) for a manager of store 1 who also owns a second store, `store`:
 * the header's Store select shows for them. Store 1's membership is the older, so a sign-in opens it.
 */
export function memberOfTwoStores(who: { name: string; email: string; password: string }, store: string): SeedStatement[] {
  return [
    { sql: `INSERT INTO store (id, name) VALUES (2, $1)`, params: [store] },
    { sql: `SELECT setval('store_id_seq', 3, false)` },
    {
      sql: `INSERT INTO "user" (id, email, name, password_hash, role, updated_at) VALUES ('u-two-stores', $1, $2, $3, 'manager', now())`,
      params: [who.email, who.name, seedHash(who.password)],
    },
    {
      sql: `INSERT INTO membership (store_id, user_id, role, created_at) VALUES (1, 'u-two-stores', 'manager', now() - interval '1 day'), (2, 'u-two-stores', 'owner', now())`,
    },
  ];
}
