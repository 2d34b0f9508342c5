// The order vitest runs the test files in: its own (larger or slower files first), except that
// the integration files on the worker's shared app (tests/helpers/shared-app.ts) come after every
// other file of their project. The shared app keeps working while it waits (its chain worker ticks
// each second, about 3 % of a core), so the files that use it run together at the end, where
// their short runs also fill the last minutes of the two workers evenly.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Whether a test file's source imports the shared app. */
export const usesSharedApp = (source: string) => /from '\.\.\/helpers\/shared-app'/.test(source);

/**
 * `sorted` with each project's `isLast` files moved after its others; projects, and the files
 * within each part, keep their order.
 */
export function lastInProject<F extends { project: string }>(sorted: readonly F[], isLast: (f: F) => boolean): F[] {
  const out: F[] = [];
  for (const name of new Set(sorted.map((f) => f.project))) {
    const mine = sorted.filter((f) => f.project === name);
    out.push(...mine.filter((f) => !isLast(f)), ...mine.filter(isLast));
  }
  return out;
}

export class SharedAppLastSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = (await super.sort(files)).map((spec) => ({ spec, project: spec.project.name }));
    return lastInProject(sorted, ({ spec }) => usesSharedApp(readFileSync(spec.moduleId, 'utf8'))).map(({ spec }) => spec);
  }
}
