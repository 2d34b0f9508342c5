import { defineConfig } from '@playwright/test';
import { disableFeaturesArg } from './tests/e2e/chromium-features';

// Real Debian Chromium, never a downloaded browser. The host-resolver rule keeps the browser
// on loopback: this machine has no general network, and nothing in the tests needs one.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two specs at a time: each starts its own app on a free port with its own DATA_DIR (and, for
  // pos.spec, its own litecoind), so no two share state; the tests of one spec stay in order in
  // one worker. Most of a spec's time is waiting (app start-up, blocks, live updates), so two
  // overlap well on two cores. PW_WORKERS=1 runs them one by one.
  workers: Number(process.env.PW_WORKERS) || 2,
  fullyParallel: false,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    // The till's and checkout's waiting dots pulse forever; a still page keeps Chromium from
    // painting frames nobody looks at while a test waits on the chain. The app honours the
    // setting as any visitor who asks for less motion gets it.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        disableFeaturesArg,
        // A test's page lives seconds, in a renderer of its own; V8's optimising compiler spends
        // more on the app's scripts than it saves them there (as --liftoff-only for the app's
        // PGlite). Chromium's CPU for till-layout and checkout: 50.7 CPU-s against 56.2 (three and
        // four runs, 1 December 2026). Pages behave the same; only their scripts run unoptimised.
        '--js-flags=--no-opt',
        '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost',
      ],
    },
  },
});
