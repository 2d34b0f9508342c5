// lib/wallet must run in the browser: nothing it imports, transitively, may use node: modules,
// Node globals like Buffer, or Next.js.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

function graph(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const src = readFileSync(file, 'utf8');
    seen.set(file, src);
    for (const m of src.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'/g)) {
      const spec = m[1];
      if (!spec.startsWith('.')) continue;
      const base = resolve(dirname(file), spec);
      visit(existsSync(base + '.ts') ? base + '.ts' : resolve(base, 'index.ts'));
    }
  };
  visit(entry);
  return seen;
}

describe('lib/wallet portability', () => {
  it('imports no node: modules, Buffer or Next.js, transitively', () => {
    const files = graph(resolve(__dirname, '../../lib/wallet/index.ts'));
    expect(files.size).toBeGreaterThan(10);
    const offenders: string[] = [];
    for (const [file, src] of files) {
      const code = src.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
      for (const m of code.matchAll(/from\s+'([^']+)'/g)) {
        if (/^(node:|next(\/|$)|fs$|crypto$|path$)/.test(m[1])) offenders.push(`${file}: ${m[1]}`);
      }
      if (/\bBuffer\./.test(code) || /\bprocess\.env\b/.test(code)) offenders.push(`${file}: Node global`);
    }
    expect(offenders).toEqual([]);
  });

  it('imports only npm packages that lib/wallet/package.json declares (the package ships without the app)', () => {
    const files = graph(resolve(__dirname, '../../lib/wallet/index.ts'));
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../lib/wallet/package.json'), 'utf8'));
    const declared = new Set(Object.keys(pkg.dependencies ?? {}));
    const undeclared = new Set<string>();
    for (const [file, src] of files) {
      const code = src.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
      for (const m of code.matchAll(/from\s+'([^'.][^']*)'/g)) {
        const name = m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0];
        if (!declared.has(name)) undeclared.add(`${file}: ${m[1]}`);
      }
    }
    expect([...undeclared]).toEqual([]);
    // and every declared dependency is one the app itself pins, at the same version
    const root = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
    for (const [name, version] of Object.entries(pkg.dependencies)) expect(root.dependencies[name], name).toBe(version);
  });
});
