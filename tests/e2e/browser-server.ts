// One Chromium for the whole run. Playwright starts a worker process for each spec file whose
// worker fixtures differ (each spec starts its own app as one), and each worker launched its own
// browser: 35 launches of a few CPU-seconds each. The workers now connect to this one
// (playwright.config.ts's connectOptions); each test still gets a fresh context of its own.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

export default async function browserServer(): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  process.env.PW_BROWSER_WS = server.wsEndpoint();
  return async () => {
    await server.close();
  };
}
