// The layers of lib/ and app/ hold, and there is no import cycle (docs/architecture.md#layers).
// dependency-cruiser reads the import graph with the rules of .dependency-cruiser.cjs; this test
// runs it through its API, so a violation fails `npm test` like any other test. A second test
// cruises a small tree with one violation of each rule, so the rules cannot silently match nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseOptions, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = join(__dirname, '..', '..');

function describeViolation(v: IViolation): string {
  const cycle = v.cycle?.length ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : '';
  return `${v.rule.name}: ${v.from} → ${v.to}${cycle}`;
}

async function loadOptions(): Promise<ICruiseOptions> {
  return extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
}

async function violationsIn(dirs: string[], options: ICruiseOptions, tsConfig?: unknown): Promise<string[]> {
  const out = await cruise(dirs, { ...options, validate: true }, {}, tsConfig ? { tsConfig } : {});
  const result = out.output as ICruiseResult;
  return (result.summary.violations ?? []).map(describeViolation);
}

describe('architecture: layers and cycles', () => {
  it('lib/ and app/ break no layer rule and have no import cycle', { timeout: 120_000 }, async () => {
    const cwd = process.cwd();
    process.chdir(ROOT); // the rules' paths are relative to the repository's root
    try {
      const options = await loadOptions();
      const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'));
      expect(await violationsIn(['lib', 'app'], options, tsConfig)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  describe('each rule catches its violation', () => {
    const tree = mkdtempSync(join(tmpdir(), 'counter-layers-'));
    afterAll(() => rmSync(tree, { recursive: true, force: true }));
    const files: Record<string, string> = {
      'lib/chain/low.ts': "import { high } from '../relay/high';\nexport const low = high;\n",
      'lib/relay/high.ts': 'export const high = 1;\n',
      'lib/refunds/errors.ts': "import { answer } from '../api/respond';\nexport const e = answer;\n",
      'lib/api/respond.ts': 'export const answer = 1;\n',
      'lib/money/page.ts': "import { x } from '../../app/page';\nexport const y = x;\n",
      'app/page.ts': "import { inner } from '../lib/auth/inner';\nexport const x = inner;\n",
      'lib/auth/index.ts': "export { inner } from './inner';\n",
      'lib/auth/inner.ts': 'export const inner = 1;\n',
      'lib/relay/index.ts': "export { high } from './high';\n",
      'lib/relay/inner.ts': "import { high } from './high';\nexport const inner = high;\n",
      'lib/relay/notify.ts': "import { feed } from '../live/feed';\nexport const notify = feed;\n",
      'lib/live/feed.ts': 'export const feed = 1;\n',
      'lib/webhooks/send.ts': 'export const send = 1;\n',
      'lib/payments/core.ts': "import { send } from '../webhooks/send';\nexport const core = send;\n",
      'lib/p2p/peer.ts': "import { core } from '../payments/core';\nexport const peer = core;\n",
      'app/pay.ts': "import { high } from '../lib/relay/high';\nexport const pay = high;\n",
      'lib/pos/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'lib/pos/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }

    it('reports lower→higher, payments→its faces, face→face, domain→HTTP, lib→app, app→module internals and a cycle', async () => {
      const options = await loadOptions();
      const ruleSet = { ...options.ruleSet!, options: { ...(options.ruleSet as { options?: object }).options, tsConfig: undefined } };
      const cwd = process.cwd();
      process.chdir(tree);
      try {
        const found = await violationsIn(['lib', 'app'], { ...options, ruleSet, tsConfig: undefined });
        expect(found).toEqual(
          expect.arrayContaining([
            'lower-not-higher: lib/chain/low.ts → lib/relay/high.ts',
            'domain-not-http: lib/refunds/errors.ts → lib/api/respond.ts',
            'lib-not-next: lib/money/page.ts → app/page.ts',
            'app-through-index: app/page.ts → lib/auth/inner.ts',
            'app-through-index: app/pay.ts → lib/relay/high.ts',
            'faces-apart: lib/relay/notify.ts → lib/live/feed.ts',
            'payments-is-the-core: lib/payments/core.ts → lib/webhooks/send.ts',
            'lower-not-higher: lib/p2p/peer.ts → lib/payments/core.ts',
            expect.stringMatching(/^no-circular: lib\/pos\/(a|b)\.ts → lib\/pos\/(a|b)\.ts/),
          ]),
        );
        // A face's own files may import each other.
        expect(found.filter((v) => v.includes('lib/relay/inner.ts'))).toEqual([]);
      } finally {
        process.chdir(cwd);
      }
    });
  });
});
