// Helpers for the till's catalog controls in real Chromium (docs/catalog.md), shared by
// till-catalog.spec.ts and catalog-import.spec.ts: the till's product grid, a cart line, and a
// keyboard-wedge scanner's burst of keys (signing in: fixtures.ts signInToTill).
import type { Page } from '@playwright/test';

/** The product buttons the selected category tab shows. */
export const grid = (page: Page) => page.locator('#till-category-panel button');
export const cartLine = (page: Page, name: string) => page.getByTestId('cart-line').filter({ hasText: name });

/**
 * A keyboard-wedge scanner: the code's keys and Enter as one burst of keydown events on the
 * focused element, dispatched inside the page. Playwright's page.keyboard sends each key through
 * the browser's input pipeline with a round trip per key, which on a loaded 2-core machine spaces
 * them like a person's typing; a real scanner's keys arrive a few ms apart, as these do.
 */
export async function scan(page: Page, code: string) {
  await page.evaluate((c) => {
    const target = document.activeElement ?? document.body;
    for (const key of [...c.split(''), 'Enter']) {
      target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    }
  }, code);
}
