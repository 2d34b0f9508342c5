// `detect` (docs/live.md, docs/performance.md#live-path): a plain-wallet payment seen by the app. From the
// `sendtoaddress` call of a regtest dogecoind's own wallet (an ordinary wallet paying the
// payment's address and amount) to the `accepted` event on the payment's open stream, on the
// rpc and spv backends (PGlite), the node whitelisting loopback. The baseline in the same run is
// the `sendtoaddress` call itself (the node's own time to take the tx).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newPayment, openStream, percentiles, startLiveApp, startNode, waitFor, dogecoindHelper } from './lib/live-prep.mjs';

/** Each variant: its label in the results, the backend, and whether the node whitelists the app. */
const VARIANTS = [
  { label: 'rpc-no-whitelist', backend: 'rpc', whitelist: false },
  { label: 'rpc', backend: 'rpc', whitelist: true },
  { label: 'spv', backend: 'spv', whitelist: true },
];

async function measure(backend, node, samples) {
  const dataDir = mkdtempSync(join(tmpdir(), `counter-bench-detect-${backend}-`));
  let app;
  try {
    const started = await startLiveApp(backend, node, { dataDir });
    app = started.app;
    const lat = [];
    const sendMs = [];
    const all = [];
    let missed = 0;
    for (let i = 0; i < samples; i++) {
      const p = await newPayment(app, started.key);
      const out = p.payment.outputs.find((o) => o.type === 'p2pkh');
      const s = await openStream(app, p.id, started.key);
      const t0 = performance.now();
      await node.rpc('sendtoaddress', out.address, Number(out.amount));
      sendMs.push(performance.now() - t0);
      const t1 = await waitFor(() => s.at('accepted') ?? s.at('confirmed'), 10_000);
      s.close();
      if (t1 === null) missed++;
      else lat.push(t1 - t0);
      all.push(t1 === null ? null : Math.round(t1 - t0));
      // The node's wallet chains unconfirmed change: a block now and then keeps it under the ancestor limit.
      if (i % 10 === 9) await node.mine(1);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Each sample in order (null: missed), so a tail can be told apart: every tenth follows a block.
    return {
      ...percentiles(lat),
      missed,
      sendtoaddress: percentiles(sendMs),
      samples_ms: all,
      sendtoaddress_samples_ms: sendMs.map(Math.round),
    };
  } finally {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const h = await dogecoindHelper();

const benchmark = {
  name: 'detect',
  description:
    "sendtoaddress (dogecoind wallet) → accepted event on an open stream (rpc without and with the node's whitelist, spv; PGlite)",
  ...(h.haveDogecoind ? {} : { available: `not yet available here: ${h.skipReason}` }),
  async run({ smoke }) {
    const samples = smoke ? 3 : 30;
    const results = {};
    for (const whitelist of [false, true]) {
      const node = await startNode({ whitelist });
      try {
        for (const v of VARIANTS.filter((x) => x.whitelist === whitelist)) results[v.label] = await measure(v.backend, node, samples);
      } finally {
        await node?.dispose();
      }
    }
    const ratios = [];
    for (const [backend, r] of Object.entries(results)) {
      ratios.push({ name: `${backend}: p50 ms`, value: r.p50_ms, target: 500, lowerIsBetter: true });
      ratios.push({ name: `${backend}: max ms`, value: r.missed ? null : r.max_ms, target: 1000, lowerIsBetter: true });
    }
    return { metrics: { samples, by_backend: results }, ratios };
  },
};

export default benchmark;
