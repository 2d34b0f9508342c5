// Every namespace a component under app/ reads with useTranslations (which runs in the browser
// for client components) must be among the sections its area's layout sends to the browser
// (i18n/client-messages.ts); otherwise the till or back office would show raw keys. Shared
// components (app/_lib) must be covered by every area, since nested providers replace messages.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { vi } from 'vitest';

vi.mock('next-intl/server', () => ({ getMessages: async () => JSON.parse(readFileSync(join(process.cwd(), 'messages/en.json'), 'utf8')) }));
const { CLIENT_SECTIONS, clientMessages } = await import('../../i18n/client-messages');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

const ROOT = process.cwd();
const uses = files(join(ROOT, 'app')).flatMap((f) => {
  const src = readFileSync(f, 'utf8');
  return [...src.matchAll(/useTranslations\(\s*['"]([A-Za-z]+)['"]\s*\)/g)].map((m) => ({ file: relative(ROOT, f), ns: m[1] }));
});

describe('client message sections', () => {
  it('finds the components that translate in the browser', () => {
    expect(uses.length).toBeGreaterThan(20);
    expect(uses.some((u) => u.file.includes('(pos)'))).toBe(true);
    expect(uses.some((u) => u.file.includes('(admin)'))).toBe(true);
  });

  it("covers every namespace read with useTranslations in each area's layout", () => {
    const missing: string[] = [];
    for (const { file, ns } of uses) {
      const areas: (keyof typeof CLIENT_SECTIONS)[] = file.includes('/(pos)/')
        ? ['pos']
        : file.includes('/(admin)/')
          ? ['admin']
          : file.startsWith('app/checkout/')
            ? ['checkout']
            : file.startsWith('app/display/')
              ? ['display']
              : file.startsWith('app/wallet-check/')
                ? ['walletCheck']
                : ['root', 'pos', 'admin', 'checkout'];
      for (const a of areas)
        if (!(CLIENT_SECTIONS[a] as readonly string[]).includes(ns)) missing.push(`${file}: '${ns}' not sent by the ${a} layout`);
    }
    expect(missing).toEqual([]);
  });

  it('sends only the listed sections, each present in the catalog', async () => {
    const all = JSON.parse(readFileSync(join(ROOT, 'messages/en.json'), 'utf8'));
    for (const area of Object.keys(CLIENT_SECTIONS) as (keyof typeof CLIENT_SECTIONS)[]) {
      const m = await clientMessages(area);
      expect(Object.keys(m).sort()).toEqual([...CLIENT_SECTIONS[area]].sort());
      for (const k of CLIENT_SECTIONS[area]) expect(all[k], k).toBeDefined();
    }
    expect(JSON.stringify(await clientMessages('pos')).length).toBeLessThan(JSON.stringify(all).length / 2);
  });
});
