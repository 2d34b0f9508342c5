// The suite's file order (tests/shared-app-sequencer.ts): the shared-app files last in their project.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastInProject, usesSharedApp } from '../shared-app-sequencer';

const INTEGRATION = join(__dirname, '..', 'integration');

describe('the shared-app files run last in their project', () => {
  it('moves them after the others of their project, keeping every other order', () => {
    const f = (project: string, name: string, shared = false) => ({ project, name, shared });
    const sorted = [
      f('integration', 'a', true),
      f('integration', 'b'),
      f('integration', 'c', true),
      f('integration', 'd'),
      f('unit', 'e', true),
      f('unit', 'g'),
    ];
    expect(lastInProject(sorted, (x) => x.shared).map((x) => `${x.project}:${x.name}`)).toEqual([
      'integration:b',
      'integration:d',
      'integration:a',
      'integration:c',
      'unit:g',
      'unit:e',
    ]);
  });

  it('knows a file on the shared app by its import, and finds the files that use it', () => {
    expect(usesSharedApp("import { sharedShop, type SharedShop } from '../helpers/shared-app';")).toBe(true);
    expect(usesSharedApp("import { startApp } from '../helpers/app-server';")).toBe(false);
    const shared = readdirSync(INTEGRATION).filter(
      (n) => n.endsWith('.test.ts') && usesSharedApp(readFileSync(join(INTEGRATION, n), 'utf8')),
    );
    expect(shared).toContain('mark-api.test.ts');
    expect(shared.length).toBeGreaterThanOrEqual(17);
  });
});
