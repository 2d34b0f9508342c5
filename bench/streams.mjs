// `streams` (docs/performance.md#live-streams-opened-and-closed): whether memory stays bounded while
// thousands of live streams open and close. Each round opens the whole anonymous budget of real
// checkout streams (MAX_CHECKOUT_STREAMS, 500 at the default MAX_STREAMS; 25 client addresses of
// 20 under TRUST_PROXY=1, over 260 payments) plus the rest of MAX_STREAMS as tills' streams (1,500:
// 150 API keys × 10), so the app holds as many streams as it is sized for (its heap cap,
// docs/configuration.md); it waits until each has its payment's state, reads the heap after a full
// collection (what the open streams keep), then closes them all (the client goes away) and reads the
// app's memory after a full collection (the app runs with --expose-gc; /api/bench-floor?mem=1&gc=1)
// once its stream bookkeeping (slots, slot-map keys, hub watchers, open feeds) is back at zero.
// The heap after GC must plateau: the ratio is the last round's over the first round's.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { startApp, createPayment } from './lib/app.mjs';
import { DGUB } from './lib/common.mjs';
import { heapMbFor } from '../scripts/app-node-options.mjs';

const MB = 1024 * 1024;
const PASSWORD = 'bench streams password 1';

/** Runs `fn` over `xs` with at most `n` at a time. */
async function pool(xs, n, fn) {
  const out = new Array(xs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < xs.length) {
        const i = next++;
        out[i] = await fn(xs[i], i);
      }
    }),
  );
  return out;
}

/** An open stream once its first `payment` event is in, or its refusal's status. */
function open(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve({ status: res.statusCode, close: () => req.destroy() });
      }
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        if (buf === null) return;
        buf += d;
        if (buf.includes('event: payment\n')) {
          buf = null;
          resolve({ status: 200, close: () => req.destroy() });
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
  });
}

async function json(url, init, retry = true) {
  // A pooled keep-alive connection the server is closing just then answers ECONNRESET: once more.
  const r = await fetch(url, init).catch((e) => (retry && e?.cause?.code === 'ECONNRESET' ? null : Promise.reject(e)));
  if (r === null) return json(url, init, false);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

async function apiKeys(app, n) {
  const login = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'owner@bench.test', password: PASSWORD }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const { csrf_token: csrf } = await login.json();
  return pool(
    Array.from({ length: n }, (_, i) => i),
    4,
    async (i) =>
      (
        await json(`${app.url}/api/admin/api-keys`, {
          method: 'POST',
          headers: { Cookie: cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `bench stream ${i}`, scopes: ['payments:read'] }),
        })
      ).secret,
  );
}

/** Memory and stream bookkeeping; `gc`: after two full collections. */
async function sample(app, gc) {
  if (gc) await json(`${app.url}/api/bench-floor?mem=1&gc=1`);
  const m = await json(`${app.url}/api/bench-floor?mem=1${gc ? '&gc=1' : ''}`);
  return {
    heap_mb: +(m.heapUsed / MB).toFixed(1),
    external_mb: +(m.external / MB).toFixed(1),
    rss_mb: Math.round(app.rssBytes() / MB),
    streams: m.streams,
  };
}

async function settled(app) {
  const end = Date.now() + 60_000;
  for (;;) {
    const { streams: s } = await sample(app, false);
    if ((s.open === 0 && s.keys === 0 && s.hub_watchers === 0 && s.feeds === 0) || Date.now() > end) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const benchmark = {
  name: 'streams',
  description: 'heap after GC while 2,000 live streams (500 anonymous checkout) open and close per round, target: flat',
  async run({ smoke }) {
    const rounds = smoke ? 2 : 5;
    // The default MAX_STREAMS (2,000) in full: the anonymous budget (500) and the rest the tills'.
    const [anonymous, tills] = smoke ? [100, 50] : [500, 1500];
    const key = 'bench-' + randomBytes(16).toString('hex');
    const app = await startApp(
      {
        STORE_XPUB: DGUB,
        BOOTSTRAP_API_KEY: key,
        WORKER: 'off',
        TRUST_PROXY: '1',
        ADMIN_EMAIL: 'owner@bench.test',
        ADMIN_PASSWORD: PASSWORD,
      },
      { nodeArgs: ['--expose-gc'] },
    );
    try {
      const payments = await pool(
        Array.from({ length: smoke ? 30 : 260 }, () => 0),
        4,
        async () => (await createPayment(app, key)).id,
      );
      const keys = await apiKeys(app, Math.ceil(tills / 10));
      const idle = await sample(app, true);
      if (!idle.streams.gc) throw new Error('the app has no gc(): --expose-gc did not reach it');
      const out = [];
      for (let r = 0; r < rounds; r++) {
        const jobs = [
          ...Array.from({ length: anonymous }, (_, i) => [
            `/api/checkout/${payments[(r * 7 + i) % payments.length]}/events`,
            { 'X-Forwarded-For': `203.0.113.${Math.floor(i / 20)}` },
          ]),
          ...Array.from({ length: tills }, (_, i) => [
            `/api/v1/payments/${payments[i % payments.length]}/events`,
            { Authorization: `Bearer ${keys[Math.floor(i / 10)]}` },
          ]),
        ];
        const streams = await pool(jobs, 25, ([path, headers]) => open(app.url + path, headers));
        const refused = streams.filter((s) => s.status !== 200).length;
        const opened = await sample(app, false);
        const live = await sample(app, true); // what the open streams keep
        console.log(
          `  round ${r + 1}: ${streams.length - refused} open, heap ${opened.heap_mb} MB, ${live.heap_mb} MB after GC, RSS ${opened.rss_mb} MB`,
        );
        for (const s of streams) s.close();
        const left = await settled(app);
        const after = await sample(app, true);
        out.push({
          round: r + 1,
          opened: streams.length - refused,
          refused,
          open_heap_mb: opened.heap_mb,
          open_heap_after_gc_mb: live.heap_mb,
          open_rss_mb: opened.rss_mb,
          left_open: left.open + left.keys + left.hub_watchers + left.feeds,
          heap_after_gc_mb: after.heap_mb,
          rss_after_mb: after.rss_mb,
        });
        console.log(`  round ${r + 1}: ${JSON.stringify(out.at(-1))}`);
      }
      const first = out[0].heap_after_gc_mb;
      const last = out.at(-1).heap_after_gc_mb;
      return {
        metrics: {
          heap_cap_mb: heapMbFor({}),
          idle_heap_after_gc_mb: idle.heap_mb,
          idle_rss_mb: idle.rss_mb,
          streams_per_round: anonymous + tills,
          streams_closed: out.reduce((a, x) => a + x.opened, 0),
          rounds: out,
        },
        ratios: [
          {
            name: 'heap after GC, last round / first round',
            value: Math.round((last / first) * 1000) / 1000,
            target: 1.1,
            lowerIsBetter: true,
          },
          // Headroom: the live heap with every stream open, against the cap the app runs with.
          {
            name: 'heap after GC with all streams open / heap cap',
            value: Math.round((Math.max(...out.map((x) => x.open_heap_after_gc_mb)) / heapMbFor({})) * 1000) / 1000,
            target: 0.8,
            lowerIsBetter: true,
          },
          {
            name: 'bookkeeping left after the last round (slots, keys, watchers, feeds)',
            value: out.at(-1).left_open,
            target: 0,
            lowerIsBetter: true,
          },
        ],
      };
    } catch (e) {
      await new Promise((r) => setTimeout(r, 2000)); // a dying app's stderr arrives after its socket closes
      let alive = true;
      try {
        process.kill(app.pid, 0);
      } catch {
        alive = false;
      }
      throw new Error(
        `${e?.message ?? e} (${e?.cause?.code ?? e?.cause ?? ''}); the app is ${alive ? 'alive' : 'gone'}; its last words:\n${app.logs().slice(-2000)}`,
      );
    } finally {
      await app.stop();
    }
  },
};

export default benchmark;
