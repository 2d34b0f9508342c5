import { appTest, expect } from './fixtures';

const test = appTest();

test('home page explains Counter and links to the cashier screen and back office', async ({ page, app }) => {
  await page.goto(app.url + '/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Dogecoin');
  await expect(page.getByText('pglite', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: 'Open the cashier screen' }).click();
  // The cashier screen needs a signed-in user: first /login, which sends a new install to /setup.
  await expect(page).toHaveURL(/\/(login\?next=%2Fpos|setup)$/);
  await page.goto(app.url + '/');
  await page.getByRole('link', { name: 'Open the back office' }).click();
  // The back office needs a signed-in manager; with no account yet, sign-in leads to /setup.
  await expect(page).toHaveURL(/\/setup$/);
});

test('the home page fits a phone screen without horizontal scrolling', async ({ page, app }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(app.url + '/');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const link = page.getByRole('link', { name: 'Open the cashier screen' });
  await expect(link).toHaveCSS('min-height', '48px'); // the stylesheet has applied
  const box = await link.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
});
