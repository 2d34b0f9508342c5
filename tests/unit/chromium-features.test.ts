// The suite's --disable-features replaces Playwright's own (Chromium keeps the last one), so it
// must hold every feature the installed Playwright disables (tests/e2e/chromium-features.ts).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PLAYWRIGHT_DISABLED_FEATURES, disableFeaturesArg } from '../e2e/chromium-features';

/** The features Playwright's chromiumSwitches disables, read from the installed playwright-core. */
function installedPlaywrightList(): string[] {
  const root = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
  const bundle = readFileSync(join(root, 'lib', 'coreBundle.js'), 'utf8');
  const m = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle);
  if (!m) throw new Error('playwright-core no longer lists its disabled features as this test reads them');
  return [...m[1]!.replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((x) => x[1]!);
}

describe('Chromium features the e2e browser disables', () => {
  it("holds every feature the installed Playwright disables, and the address bar's popups", () => {
    const ours = disableFeaturesArg.replace('--disable-features=', '').split(',');
    const theirs = installedPlaywrightList();
    expect(theirs.length).toBeGreaterThan(5);
    expect(ours).toEqual(expect.arrayContaining(theirs));
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(theirs);
    expect(ours).toEqual(expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
  });
});
