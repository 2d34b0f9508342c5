import { test as base } from '@playwright/test';
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
