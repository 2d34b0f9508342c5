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

async function cruiseIn(dirs: string[], options: ICruiseOptions, tsConfig?: unknown): Promise<ICruiseResult> {
  const out = await cruise(dirs, { ...options, validate: true }, {}, tsConfig ? { tsConfig } : {});
  return out.output as ICruiseResult;
}

const describeAll = (result: ICruiseResult) => (result.summary.violations ?? []).map(describeViolation);

/**
 * Cycles between lib/ folders (docs/architecture.md#layers), which dependency-cruiser's
 * `circular` rule, file by file, does not see: folder a imports folder b (any file of one, any
 * of the other) and b, through any path, imports a. Each cycle as its folders, sorted.
 */
function folderCycles(result: ICruiseResult): string[][] {
  const folder = (p: string) => /^lib\/([^/]+)\//.exec(p)?.[1] ?? null;
  const edges = new Map<string, Set<string>>();
  for (const m of result.modules) {
    const a = folder(m.source);
    if (!a) continue;
    for (const d of m.dependencies) {
      const b = folder(d.resolved);
      if (b && b !== a) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
  }
  // Tarjan's strongly connected components: a component of more than one folder is a cycle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do scc.push((w = stack.pop()!));
      while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('architecture: layers and cycles', () => {
  it('lib/ and app/ break no layer rule and have no import cycle', { timeout: 120_000 }, async () => {
    const cwd = process.cwd();
    process.chdir(ROOT); // the rules' paths are relative to the repository's root
    try {
      const options = await loadOptions();
      const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'));
      const result = await cruiseIn(['lib', 'app'], options, tsConfig);
      expect(describeAll(result)).toEqual([]);
      expect(folderCycles(result)).toEqual([]);
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
      // A cycle between folders of one layer that no two files close: cash → backoffice → cash.
      'lib/cash/adjust.ts': "import { err } from '../backoffice';\nexport const adjust = err;\n",
      'lib/backoffice/index.ts': "export { err } from './errors';\n",
      'lib/backoffice/errors.ts': 'export const err = 1;\n',
      'lib/backoffice/catalog.ts': "import { level } from '../cash';\nexport const catalog = level;\n",
      'lib/cash/index.ts': "export { level } from './level';\n",
      'lib/cash/level.ts': 'export const level = 1;\n',
      // Past another folder's index, from a folder and from one of lib's own files; its client.ts is a way in.
      'lib/refunds/deep.ts': "import { inner } from '../auth/inner';\nexport const deep = inner;\n",
      'lib/boot.ts': "import { inner } from './auth/inner';\nexport const boot = inner;\n",
      'lib/auth/client.ts': "export { inner } from './inner';\n",
      'lib/catalog/shown.ts': "import { sale } from '../pos';\nexport const shown = sale;\n",
      'lib/pos/index.ts': 'export const sale = 1;\n',
      'lib/refunds/shown.ts': "import { inner } from '../auth/client';\nexport const shown = inner;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }

    it('reports lower→higher, payments→its faces, face→face, domain→HTTP, lib→app, app→module internals, lib→another folder’s internals, a cycle and a folder cycle', async () => {
      const options = await loadOptions();
      const ruleSet = { ...options.ruleSet!, options: { ...(options.ruleSet as { options?: object }).options, tsConfig: undefined } };
      const cwd = process.cwd();
      process.chdir(tree);
      try {
        const result = await cruiseIn(['lib', 'app'], { ...options, ruleSet, tsConfig: undefined });
        const found = describeAll(result);
        expect(found).toEqual(
          expect.arrayContaining([
            'layers-point-down: lib/chain/low.ts → lib/relay/high.ts',
            'domain-not-http: lib/refunds/errors.ts → lib/api/respond.ts',
            'lib-not-next: lib/money/page.ts → app/page.ts',
            'app-through-index: app/page.ts → lib/auth/inner.ts',
            'app-through-index: app/pay.ts → lib/relay/high.ts',
            'faces-apart: lib/relay/notify.ts → lib/live/feed.ts',
            'layers-point-down: lib/payments/core.ts → lib/webhooks/send.ts',
            'layers-point-down: lib/p2p/peer.ts → lib/payments/core.ts',
            'layers-point-down: lib/catalog/shown.ts → lib/pos/index.ts',
            'lib-through-index: lib/refunds/deep.ts → lib/auth/inner.ts',
            'lib-through-index: lib/boot.ts → lib/auth/inner.ts',
            expect.stringMatching(/^no-circular: lib\/pos\/(a|b)\.ts → lib\/pos\/(a|b)\.ts/),
          ]),
        );
        expect(found.filter((v) => v.includes('lib/refunds/shown.ts'))).toEqual([]);
        // A face's own files may import each other.
        expect(found.filter((v) => v.includes('lib/relay/inner.ts'))).toEqual([]);
        // The folder cycle, which no file-level rule reports.
        expect(found.filter((v) => /cash|backoffice/.test(v))).toEqual([]);
        expect(folderCycles(result)).toEqual([['backoffice', 'cash']]);
      } finally {
        process.chdir(cwd);
      }
    });
  });
});
