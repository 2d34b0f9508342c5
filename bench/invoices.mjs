// `invoices`: p50/p99 of GET /invoices/{address} at 1,000,000 invoices (target p99 < 50 ms), over
// a mix of addresses and pages: the store's seller address (every payment; pages 0–9 and a few
// deep ones), 1,000 buyer addresses (1,000 invoices each, pages 0–9) and payment addresses.
// The seeded PGlite data dir is cached in bench/.cache/invoices-<n> (reused while the migrations
// are unchanged); smoke runs seed a small N in a temporary dir.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { ROOT, startApp, createPayment } from './lib/app.mjs';
import { seedPayments } from './lib/seed.mjs';
import { DGUB } from './lib/common.mjs';
import { load } from './lib/load.mjs';

const BUYERS = 1000;

async function addresses() {
  const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });
  const doge = await jiti.import(join(ROOT, 'lib/doge/index.ts'));
  const { sellerAddress } = await jiti.import(join(ROOT, 'lib/payments/creation/receive-address.ts'));
  const net = doge.getNetwork('mainnet');
  const account = doge.parseXpub(DGUB, net);
  // Buyers: external addresses of another branch of the same account (valid, distinct).
  const buyers = Array.from({ length: BUYERS }, (_, i) => doge.deriveAddress(account, i, net, 1));
  const payees = Array.from({ length: BUYERS }, (_, i) => doge.deriveAddress(account, 1_000_000 + i, net, 0));
  return { seller: sellerAddress({ storeXpub: DGUB, storeAddress: '' }, net), buyers, payees };
}

/** A stopped app's data dir holding `n` payments, from the cache when it matches. */
async function seededDir(n, smoke) {
  const migrations = readdirSync(join(ROOT, 'prisma', 'migrations'))
    .filter((d) => /^\d{14}_/.test(d))
    .sort();
  const dir = smoke ? join(ROOT, 'bench', '.cache', `invoices-smoke-${process.pid}`) : join(ROOT, 'bench', '.cache', `invoices-${n}`);
  const metaFile = join(dir, 'bench-meta.json');
  if (!smoke && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
    if (meta.n === n && JSON.stringify(meta.migrations) === JSON.stringify(migrations)) return { dir, meta, cached: true };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const key = 'bench-' + randomBytes(16).toString('hex');
  const env = { STORE_XPUB: DGUB, BOOTSTRAP_API_KEY: key, WORKER: 'off' };
  const first = await startApp(env, { dataDir: dir });
  const template = await createPayment(first, key);
  await first.stop({ keepData: true });
  const a = await addresses();
  const t = Date.now();
  const total = await seedPayments(dir, template.id, n - 1, {
    columns: {
      buyer_address: `($4::text[])[1 + g % ${BUYERS}]`,
      // Every payment has its own receive address; the first BUYERS are real (queried), the rest placeholders.
      address: `CASE WHEN g <= ${BUYERS} THEN ($5::text[])[g] ELSE 'seed' || g END`,
    },
    params: [a.buyers, a.payees],
  });
  const meta = { n, total, key, env, migrations, seed_seconds: Math.round((Date.now() - t) / 1000), ...a };
  writeFileSync(metaFile, JSON.stringify(meta));
  return { dir, meta, cached: false };
}

const benchmark = {
  name: 'invoices',
  description: 'GET /invoices/{address} p50/p99 at 1,000,000 invoices (PGlite), target p99 < 50 ms',
  async run({ seconds, smoke }) {
    const n = smoke ? 2_000 : 1_000_000;
    const { dir, meta, cached } = await seededDir(n, smoke);
    const app = await startApp(meta.env, { dataDir: dir });
    try {
      const paths = [];
      for (let i = 0; i < 200; i++) {
        paths.push(`/invoices/${meta.seller}?page=${i % 10}`);
        paths.push(`/invoices/${meta.buyers[(i * 37) % BUYERS]}?page=${i % 10}`);
        paths.push(`/invoices/${meta.buyers[(i * 91) % BUYERS]}?limit=20&page=${i % 5}`);
        paths.push(`/invoices/${meta.payees[(i * 13) % BUYERS]}`);
        if (i % 20 === 0) paths.push(`/invoices/${meta.seller}?page=${100 + i}`); // deep pages: offset 10,000–30,000
      }
      const check = await fetch(app.url + paths[0], { headers: { Authorization: `Bearer ${meta.key}` } });
      const first = await check.json();
      if (check.status !== 200 || first.total !== meta.total || first.invoices.length !== 100)
        throw new Error(`seller listing: ${check.status} total ${first.total} of ${meta.total}`);
      // Latency of one client (the target), then under 8 concurrent clients (queueing included).
      const one = await load({
        url: app.url,
        paths,
        headers: { Authorization: `Bearer ${meta.key}` },
        seconds,
        connections: 1,
        warmupSeconds: smoke ? 0 : 2,
      });
      const r = await load({
        url: app.url,
        paths: [...paths].reverse(),
        headers: { Authorization: `Bearer ${meta.key}` },
        seconds,
        connections: 8,
      });
      for (const x of [one, r])
        if (x.status['2xx'] !== x.total) throw new Error(`invoice listing answered non-2xx: ${JSON.stringify(x.status)}`);
      return {
        metrics: {
          invoices: meta.total,
          cached_seed: cached,
          seed_seconds: meta.seed_seconds,
          paths: paths.length,
          load_1_client: one,
          load: r,
        },
        ratios: [
          { name: 'p99 ms (1 client, mixed pages)', value: one.p99_ms, target: 50, lowerIsBetter: true },
          { name: 'p50 ms (1 client)', value: one.p50_ms, target: null },
          { name: 'p99 ms (8 clients)', value: r.p99_ms, target: null },
        ],
      };
    } finally {
      await app.stop();
      if (smoke) rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
