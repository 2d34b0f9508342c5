// `memory`: RSS of the running app (its whole process tree) with 100,000 payments in its
// PGlite database, after mixed traffic over them (status, envelope, vendor list pages). The app
// runs as `npm start` runs it, chain worker included (its spv node gets a closed loopback port
// for a peer: this machine cannot reach the network's seeds).
import { appWithPayments } from './lib/common.mjs';
import { load } from './lib/load.mjs';

const MB = 1024 * 1024;

const benchmark = {
  name: 'memory',
  description: 'app RSS after 100,000 payments (PGlite), target < 300 MB',
  async run({ seconds, smoke }) {
    const n = smoke ? 2_000 : 100_000;
    const { app, key, ids } = await appWithPayments(n, { WORKER: 'embedded', DOGE_PEERS: '127.0.0.1:9' });
    try {
      const rssIdle = app.rssBytes();
      const some = ids(5000);
      const auth = { Authorization: `Bearer ${key}` };
      await load({
        url: `${app.url}/relay/status`,
        method: 'POST',
        bodies: some.map((id) => JSON.stringify({ id })),
        seconds,
        connections: 16,
      });
      await load({ url: `${app.url}/dc/x`, paths: some.map((id) => `/dc/${id}`), seconds, connections: 16 });
      await load({ url: `${app.url}/api/v1/payments?limit=100`, headers: auth, seconds, connections: 8 });
      await load({ url: `${app.url}/api/v1/payments?status=confirmed&limit=100`, headers: auth, seconds, connections: 8 });
      // Walk the whole list through its cursor pages once (touches every row).
      let cursor = '';
      let pages = 0;
      do {
        const r = await fetch(`${app.url}/api/v1/payments?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: auth });
        const j = await r.json();
        cursor = j.next_cursor ?? '';
        pages++;
      } while (cursor && pages < (smoke ? 30 : 1100));
      const rss = app.rssBytes();
      return {
        metrics: { payments: n, list_pages_walked: pages, rss_idle_mb: Math.round(rssIdle / MB), rss_after_mb: Math.round(rss / MB) },
        ratios: [
          {
            name: 'RSS after traffic / 300 MB budget',
            value: Math.round((rss / (300 * MB)) * 1000) / 1000,
            target: 1,
            lowerIsBetter: true,
          },
        ],
      };
    } finally {
      await app.stop();
    }
  },
};

export default benchmark;
