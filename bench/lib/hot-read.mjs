// The shared body of the `status` and `envelope` benchmarks: an app holding 10,000 payments
// (500 with --smoke), one hot-read route under 64 clients cycling over 2,000 of their ids, then
// the framework floor and bare node:http, all in the same run.
import { appWithPayments, ratio } from './common.mjs';
import { load } from './load.mjs';
import { startBare } from './bare.mjs';

/**
 * `request(app, ids)` gives the load() options of the measured route; `name` labels the
 * metric and the ratios; `target` is the floor ratio's target (null: report only).
 */
export async function runHotRead({ name, request, target = null }, { seconds, smoke }) {
  const n = smoke ? 500 : 10_000;
  const { app, ids } = await appWithPayments(n);
  const bare = await startBare();
  try {
    const warmupSeconds = smoke ? 0 : 3;
    const measured = await load({ ...request(app, ids(2000)), seconds, warmupSeconds });
    const floor = await load({ url: `${app.url}/api/bench-floor`, seconds, warmupSeconds });
    const node = await load({ url: bare.url, seconds, warmupSeconds });
    if (measured.status['2xx'] !== measured.total) throw new Error(`${name} answered non-2xx: ${JSON.stringify(measured.status)}`);
    return {
      metrics: { payments: n, connections: 64, [name]: measured, floor, bare_node_http: node },
      ratios: [
        { name: `${name} / framework floor`, value: ratio(measured.rps, floor.rps), target },
        { name: `${name} / bare node:http`, value: ratio(measured.rps, node.rps), target: null },
      ],
    };
  } finally {
    await bare.stop();
    await app.stop();
  }
}
