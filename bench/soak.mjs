// `npm run soak`: 5 minutes of mixed traffic at 50 requests/s against the built app (PGlite,
// 10,000 payments), sampling the app's RSS and the window's latency every 10 s into
// bench/results/soak.json, and saying whether memory stayed flat. Not part of npm test.
// Options: --minutes=N (default 5), --rps=N (default 50).
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT, ensureBuilt } from './lib/app.mjs';
import { appWithPayments } from './lib/common.mjs';

const arg = (name, dflt) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const minutes = arg('minutes', 5);
const rps = arg('rps', 50);
const WINDOW_S = 10;
const MB = 1024 * 1024;

await ensureBuilt();
const { app, key, ids } = await appWithPayments(10_000);
const some = ids(2000);
const auth = { Authorization: `Bearer ${key}`, 'content-type': 'application/json' };
let k = 0;
const pick = () => some[k++ % some.length];
// The mix: wallet status polls and envelope fetches dominate; vendors create and list.
const requests = [
  { method: 'POST', path: '/relay/status', setupRequest: (r) => ({ ...r, body: JSON.stringify({ id: pick() }) }) },
  { method: 'POST', path: '/relay/status', setupRequest: (r) => ({ ...r, body: JSON.stringify({ id: pick() }) }) },
  { method: 'GET', setupRequest: (r) => ({ ...r, path: `/dc/${pick()}` }) },
  { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/v1/payments/${pick()}`, headers: auth }) },
  {
    method: 'POST',
    path: '/api/v1/payments',
    headers: auth,
    body: JSON.stringify({ items: [{ type: 'item', id: 's', name: 'Soak', count: 1, unit: '1.5' }] }),
  },
  { method: 'GET', path: '/api/v1/payments?limit=20', headers: auth },
  { method: 'POST', path: '/relay/pay', setupRequest: (r) => ({ ...r, body: JSON.stringify({ id: pick(), tx: 'zz', relay_token: 'x' }) }) },
];

const samples = [];
const started = Date.now();
console.log(`soak: ${minutes} min at ${rps} req/s against ${app.url}`);
try {
  for (let w = 0; w < (minutes * 60) / WINDOW_S; w++) {
    const r = await autocannon({
      url: app.url,
      connections: 10,
      overallRate: rps,
      duration: WINDOW_S,
      requests,
      headers: { 'content-type': 'application/json' },
    });
    const mem = await fetch(`${app.url}/api/bench-floor?mem=1`)
      .then((x) => x.json())
      .catch(() => ({}));
    const s = {
      heap_used_mb: Math.round((mem.heapUsed ?? 0) / MB),
      external_mb: Math.round((mem.external ?? 0) / MB),
      array_buffers_mb: Math.round((mem.arrayBuffers ?? 0) / MB),
      t_s: Math.round((Date.now() - started) / 1000),
      rss_mb: Math.round(app.rssBytes() / MB),
      requests: r.requests.total,
      rps: Math.round(r.requests.average),
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      max_ms: r.latency.max,
      errors: r.errors + r.timeouts,
      '5xx': r['5xx'],
    };
    samples.push(s);
    console.log(JSON.stringify(s));
  }
} finally {
  await app.stop();
}
// Flat memory: the last third's mean RSS within 10% (and 30 MB) of the second third's.
const third = Math.max(1, Math.floor(samples.length / 3));
const mean = (a) => a.reduce((x, y) => x + y.rss_mb, 0) / Math.max(1, a.length);
const mid = mean(samples.slice(third, 2 * third));
const last = mean(samples.slice(-third));
const growth = last - mid;
const flat = growth <= Math.max(30, mid * 0.1);
const report = {
  date: new Date().toISOString(),
  minutes,
  target_rps: rps,
  window_s: WINDOW_S,
  samples,
  summary: {
    rss_mid_mb: Math.round(mid),
    rss_last_mb: Math.round(last),
    growth_mb: Math.round(growth),
    memory_flat: flat,
    total_5xx: samples.reduce((a, s) => a + s['5xx'], 0),
    total_errors: samples.reduce((a, s) => a + s.errors, 0),
  },
};
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'soak.json'), JSON.stringify(report, null, 2) + '\n');
console.log(
  `\nmemory ${flat ? 'flat' : 'GROWING'}: ${Math.round(mid)} MB → ${Math.round(last)} MB; 5xx ${report.summary.total_5xx}, errors ${report.summary.total_errors}`,
);
process.exit(report.summary.total_5xx > 0 ? 1 : 0);
