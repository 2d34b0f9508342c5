// `scrypt`: proof-of-work checks per second (lib/doge checkHeader on real mainnet headers from
// tests/fixtures) against node:crypto scrypt alone on the same 80-byte headers. The TS
// module is bundled on the fly with rolldown (already installed with vitest).
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { scryptSync } from 'node:crypto';
import { ROOT } from './lib/app.mjs';

async function loadLib() {
  const { build } = await import('rolldown');
  const outDir = join(ROOT, 'bench', '.cache');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'doge.mjs');
  await build({ input: join(ROOT, 'lib', 'doge', 'index.ts'), platform: 'node', logLevel: 'silent', output: { file, format: 'esm' } });
  return import(`${file}?t=${Date.now()}`);
}

function perSecond(fn, seconds) {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  while (performance.now() < end) {
    fn(n);
    n++;
  }
  return Math.round(n / seconds);
}

const benchmark = {
  name: 'scrypt',
  description: 'PoW checks/s (checkHeader) vs node:crypto scrypt alone',
  async run({ seconds }) {
    const doge = await loadLib();
    const fx = JSON.parse(readFileSync(join(ROOT, 'tests', 'fixtures', 'doge-mainnet-headers.json'), 'utf8'));
    const entries = fx.entries.filter((e) => !e.auxpow).map((e) => doge.parseHeaderEntry(e.hex));
    if (entries.length === 0) throw new Error('no non-AuxPoW fixture headers');
    for (const e of entries) doge.checkHeader(e, doge.MAINNET); // they must pass
    const raws = entries.map((e) => e.header.raw);
    const checks = perSecond((i) => doge.checkHeader(entries[i % entries.length], doge.MAINNET), seconds);
    const bare = perSecond((i) => scryptSync(raws[i % raws.length], raws[i % raws.length], 32, { N: 1024, r: 1, p: 1 }), seconds);
    return {
      metrics: { headers: entries.length, checks_per_s: checks, node_scrypt_per_s: bare },
      ratios: [{ name: 'PoW checks / node:crypto scrypt', value: Math.round((checks / bare) * 1000) / 1000, target: null }],
    };
  },
};

export default benchmark;
