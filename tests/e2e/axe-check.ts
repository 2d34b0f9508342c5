// axe-core over a page in real Chromium (docs/using-counter.md#the-till-pos): its serious and
// critical violations, for a11y.spec.ts's tour of every page and the specs of single pages.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export type Theme = 'light' | 'dark';

export interface Found {
  where: string;
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** The rules a colour theme can change: the dark pass runs these only (the light pass runs all). */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Runs axe on the page as it is; returns its serious and critical violations. */
export async function axe(page: Page, where: string, theme: Theme = 'light'): Promise<Found[]> {
  const t0 = Date.now();
  // Legacy mode runs axe in the page itself: the default mode opens a blank page for every
  // analysis to merge per-frame results, which more than doubled each check, and Counter's pages
  // have no frames to merge. Only violations are reported, so axe need not detail every pass.
  // The builder evaluates axe's half-megabyte source twice per check (up to a second or two each
  // on a busy machine); a document that already holds axe, from an earlier check of this state or
  // of the other theme, gets an empty script instead and runs the axe it has.
  const injected = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  const builder = new AxeBuilder({ page, ...(injected ? { axeSource: ';' } : {}) })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] });
  if (theme === 'dark') builder.withRules(COLOUR_RULES);
  const r = await builder.analyze();
  if (process.env.A11Y_TIMES) console.log(`axe ${where}: ${Date.now() - t0} ms`);
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      where,
      id: v.id,
      impact: v.impact!,
      help: v.help,
      nodes: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`),
    }));
}

/** The same, one line per violation, for specs that collect them as text. */
export async function axeLines(page: Page, where: string, theme: Theme = 'light'): Promise<string[]> {
  return (await axe(page, where, theme)).map((f) => `[${f.impact}] ${f.where}: ${f.id} (${f.help}) ${f.nodes.slice(0, 3).join(' | ')}`);
}

export function report(found: Found[]): string {
  return (
    found.map((f) => `\n[${f.impact}] ${f.where}: ${f.id} (${f.help})\n${f.nodes.map((n) => `    ${n}`).join('\n')}`).join('') || 'none'
  );
}
