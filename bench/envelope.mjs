// `envelope`: GET /dc/<id> per second at 64 clients, against the same two baselines.
import { appWithPayments, ratio } from './lib/common.mjs';
import { load } from './lib/load.mjs';
import { startBare } from './lib/bare.mjs';

export default {
  name: 'envelope',
  description: 'GET /dc/<id>, 64 clients, 10,000 payments (PGlite)',
  async run({ seconds, smoke }) {
    const n = smoke ? 500 : 10_000;
    const { app, ids } = await appWithPayments(n);
    const bare = await startBare();
    try {
      const warmupSeconds = smoke ? 0 : 3;
      const env = await load({ url: `${app.url}/dc/x`, paths: ids(2000).map((id) => `/dc/${id}`), seconds, warmupSeconds });
      const floor = await load({ url: `${app.url}/api/bench-floor`, seconds, warmupSeconds });
      const node = await load({ url: bare.url, seconds, warmupSeconds });
      if (env.status['2xx'] !== env.total) throw new Error(`envelope answered non-2xx: ${JSON.stringify(env.status)}`);
      return {
        metrics: { payments: n, connections: 64, envelope: env, floor, bare_node_http: node },
        ratios: [
          { name: 'envelope / framework floor', value: ratio(env.rps, floor.rps), target: null },
          { name: 'envelope / bare node:http', value: ratio(env.rps, node.rps), target: null },
        ],
      };
    } finally {
      await bare.stop();
      await app.stop();
    }
  },
};
