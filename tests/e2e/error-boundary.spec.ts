// A route segment whose server component throws shows its error boundary's translated screen
// (app/(pos)/error.tsx, app/_lib/error-screen.tsx), never a blank page; without the test switch
// the failing page does not exist.
import { test, expect } from '@playwright/test';
import { startApp, type AppServer } from '../helpers/app-server';

let app: AppServer;
test.beforeAll(async () => {
  app = await startApp({ COUNTER_TEST_RENDER_ERROR: '1' });
});
test.afterAll(async () => {
  await app?.stop();
});

test("a failing page shows the error screen, in the browser's language, with a retry", async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  const res = await page.goto(app.url + '/render-check');
  expect(res?.status()).toBe(500);
  const screen = page.getByTestId('error-boundary');
  await expect(screen.getByRole('heading', { level: 1 })).toHaveText('Etwas ist schiefgelaufen');
  await expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
  await expect(screen.getByRole('link', { name: 'Zurück zum Anfang' })).toHaveAttribute('href', '/');
  // the error's own text never reaches the customer
  await expect(page.getByText('fails on purpose')).toHaveCount(0);
  await context.close();
});

test('the failing page is absent without the test switch', async () => {
  const other = await startApp();
  try {
    expect((await fetch(other.url + '/render-check', { headers: { Accept: 'text/html' } })).status).toBe(404);
  } finally {
    await other.stop();
  }
});
