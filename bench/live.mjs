// `live` (docs/live.md, docs/performance.md#live-path): from /relay/pay's 200 answer to the `accepted` event on
// an open GET /api/v1/payments/<id>/events stream, p50 and p99, with 1 stream open and with 500
// other streams open (each on a payment of its own), on devnet and, against a regtest dogecoind
// that whitelists loopback, on rpc and spv (PGlite). The baseline in the same run is /relay/pay's
// own round trip (a client that asks instead of listening learns no sooner than that).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { ROOT } from './lib/app.mjs';
import { fundBenchKey, preparePayBodies } from './lib/pay-prep.mjs';
import { newPayment, openStream, percentiles, startLiveApp, startNode, streamKeys, waitFor } from './lib/live-prep.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });

/** Opens `n` streams on `n` new payments (made with `writeKey`), 10 per read key, a few at a time. */
async function openOthers(app, writeKey, keys, n) {
  const streams = [];
  for (let i = 0; i < n; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, async (_, j) => {
        const p = await newPayment(app, writeKey);
        return openStream(app, p.id, keys[Math.floor((i + j) / 10)]);
      }),
    );
    streams.push(...batch);
  }
  return streams;
}

/** One backend: `samples` payments at each level of other open streams. */
async function measure(backend, node, { samples, levels }) {
  const dataDir = mkdtempSync(join(tmpdir(), `counter-bench-live-${backend}-`));
  const { parseKoinu } = await jiti.import(join(ROOT, 'lib/money/index.ts'));
  let app;
  const others = [];
  try {
    const funded = backend === 'devnet' ? await fundBenchKey(dataDir, samples * levels.length) : null;
    const started = await startLiveApp(backend, node, { dataDir });
    app = started.app;
    const maxOthers = Math.max(...levels);
    const keys = await streamKeys(app, Math.ceil(maxOthers / 10) + 3);
    const sampleKeys = keys.slice(-3);
    const out = {};
    let used = 0;
    for (const level of levels) {
      others.push(...(await openOthers(app, started.key, keys, level - others.length)));
      const bodies = funded ? await preparePayBodies(app, started.key, funded, samples, { from: used }) : null;
      used += samples;
      const lat = [];
      const payMs = [];
      let missed = 0;
      for (let i = 0; i < samples; i++) {
        let body;
        let id;
        if (bodies) {
          body = bodies[i];
          id = JSON.parse(body).id;
        } else {
          const p = await newPayment(app, started.key);
          const outs = p.payment.outputs
            .filter((o) => o.type === 'p2pkh')
            .map((o) => ({ address: o.address, amountKoinu: parseKoinu(o.amount) }));
          id = p.id;
          body = JSON.stringify({
            id,
            tx: await node.payTo(outs),
            ...(p.payment.relay_token ? { relay_token: p.payment.relay_token } : {}),
          });
        }
        const s = await openStream(app, id, sampleKeys[i % sampleKeys.length]);
        const t = performance.now();
        const r = await fetch(`${app.url}/relay/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
        const answer = await r.json();
        const t0 = performance.now();
        if (r.status !== 200 || !['accepted', 'confirmed'].includes(answer.status))
          throw new Error(`/relay/pay on ${backend}: ${r.status} ${JSON.stringify(answer)}`);
        payMs.push(t0 - t);
        const t1 = await waitFor(() => s.at('accepted') ?? s.at('confirmed'), 15_000);
        s.close();
        if (t1 === null) missed++;
        else lat.push(Math.max(0, t1 - t0)); // an event may be read before the answer's body
        // The node's wallet chains unconfirmed change: a block now and then keeps it under the ancestor limit.
        if (!bodies && i % 10 === 9) await node.mine(1);
        await new Promise((res) => setTimeout(res, 50));
      }
      out[level] = { ...percentiles(lat), missed, pay_round_trip: percentiles(payMs) };
    }
    return out;
  } finally {
    for (const s of others) s.close();
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const benchmark = {
  name: 'live',
  description: '/relay/pay 200 → accepted event on an open stream, with 1 and 500 streams open (devnet, rpc, spv; PGlite)',
  async run({ smoke }) {
    const samples = smoke ? 3 : 40;
    const levels = smoke ? [0, 10] : [0, 500];
    const node = await startNode();
    const results = {};
    try {
      // The smoke run (npm test) keeps to devnet and rpc: spv's own app start and sync add a minute.
      const backends = node ? (smoke ? ['devnet', 'rpc'] : ['devnet', 'rpc', 'spv']) : ['devnet'];
      for (const backend of backends) results[backend] = await measure(backend, node, { samples, levels });
    } finally {
      await node?.dispose();
    }
    const ratios = [];
    for (const [backend, byLevel] of Object.entries(results)) {
      for (const [level, r] of Object.entries(byLevel)) {
        const open = Number(level) + 1;
        ratios.push({ name: `${backend}, ${open} open: p50 ms`, value: r.p50_ms, target: 100, lowerIsBetter: true });
        ratios.push({ name: `${backend}, ${open} open: p99 ms`, value: r.p99_ms, target: 300, lowerIsBetter: true });
      }
    }
    return {
      metrics: {
        samples_per_level: samples,
        dogecoind: !!node,
        note: node ? undefined : 'dogecoind not found: rpc and spv skipped',
        by_backend: results,
      },
      ratios,
    };
  },
};

export default benchmark;
