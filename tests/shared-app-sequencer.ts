// The order vitest runs the test files in: its own (larger or slower files first), except that
// the integration files on the worker's shared app (tests/helpers/shared-app.ts) come after every
// other file of their project. The shared app keeps working while it waits (its chain worker ticks
// each second, about 3 % of a core), so the files that use it run together at the end, where
// their short runs also fill the last minutes of the two workers evenly.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const usesSharedApp = (file: string) => /from '\.\.\/helpers\/shared-app'/.test(readFileSync(file, 'utf8'));

export class SharedAppLastSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = new Set(sorted.filter((f) => usesSharedApp(f.moduleId)));
    const out: TestSpecification[] = [];
    // Projects run one after the other and stay in vitest's order; within each, the shared-app files last.
    for (const name of [...new Set(sorted.map((f) => f.project.name))]) {
      const mine = sorted.filter((f) => f.project.name === name);
      out.push(...mine.filter((f) => !last.has(f)), ...mine.filter((f) => last.has(f)));
    }
    return out;
  }
}
