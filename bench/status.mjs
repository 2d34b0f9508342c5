// `status`: POST /relay/status per second at 64 clients with 10,000 payments in the database,
// against the framework floor (a trivial route handler in the same app) and bare node:http.
import { appWithPayments, ratio } from './lib/common.mjs';
import { load } from './lib/load.mjs';
import { startBare } from './lib/bare.mjs';

export default {
  name: 'status',
  description: 'POST /relay/status, 64 clients, 10,000 payments (PGlite)',
  async run({ seconds, smoke }) {
    const n = smoke ? 500 : 10_000;
    const { app, ids } = await appWithPayments(n);
    const bare = await startBare();
    try {
      const warmupSeconds = smoke ? 0 : 3;
      const bodies = ids(2000).map((id) => JSON.stringify({ id }));
      const status = await load({ url: `${app.url}/relay/status`, method: 'POST', bodies, seconds, warmupSeconds });
      const floor = await load({ url: `${app.url}/api/bench-floor`, seconds, warmupSeconds });
      const node = await load({ url: bare.url, seconds, warmupSeconds });
      if (status.status['2xx'] !== status.total) throw new Error(`status answered non-2xx: ${JSON.stringify(status.status)}`);
      return {
        metrics: { payments: n, connections: 64, status, floor, bare_node_http: node },
        ratios: [
          { name: 'status / framework floor', value: ratio(status.rps, floor.rps), target: 0.8 },
          { name: 'status / bare node:http', value: ratio(status.rps, node.rps), target: null },
        ],
      };
    } finally {
      await bare.stop();
      await app.stop();
    }
  },
};
