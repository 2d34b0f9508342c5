// The Chromium features the suite's browser runs without. Chromium keeps only the last
// --disable-features on its command line, and Playwright passes its own list first, so this
// list repeats Playwright's (its chromiumSwitches, checked against the installed Playwright by
// tests/unit/chromium-features.test.ts) and adds ours.

/** Playwright 1.65's own list: Chromium would otherwise drop it for ours. */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Headless Chromium 156 still loads the address bar's two popups (chrome://omnibox-popup.top-chrome,
 * its AI-mode variant) in a renderer of their own, which nobody can see: a third of Chromium's CPU
 * time in a till spec (48 → 31 CPU-s for till-layout), on a machine where the suite is bound by CPU.
 */
export const OUR_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const disableFeaturesArg = `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES].join(',')}`;
