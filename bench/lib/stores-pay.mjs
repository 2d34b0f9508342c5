// /relay/pay for the `stores` benchmark: payments created through the vendor API with each
// store's own key on both web processes, a tx pre-signed for each (as bench/lib/pay-prep.mjs does
// for one store), then every body submitted once by clients split over the web processes.
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { ROOT } from './app.mjs';
import { firePay } from '../pay.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });

/**
 * POST /api/v1/payments, tried again when the connection fails: a kept-alive socket the server
 * closed after its idle timeout (between two batches) fails the request that reuses it. A retry
 * after a lost answer may leave one more unpaid payment, which the bench never uses.
 */
async function createOnce(url, key) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Bench', count: 1, unit: '1' }] }),
      });
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/**
 * One /relay/pay body each for `count` new payments, payment i created on `urls[i % urls.length]`
 * by the store `storeOf(i)` ({ key }), spending UTXO `from + i` of `funded`.
 */
export async function preparePayBodiesOf(urls, storeOf, funded, count, { from = 0, concurrency = 8 } = {}) {
  const wallet = await jiti.import(join(ROOT, 'lib/wallet/index.ts'));
  const doge = await jiti.import(join(ROOT, 'lib/doge/index.ts'));
  const network = doge.getNetwork('regtest');
  const bodies = new Array(count);
  let next = 0;
  async function worker() {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const r = await createOnce(`${urls[i % urls.length]}/api/v1/payments`, storeOf(i).key);
      const p = await r.json();
      if (r.status !== 201) throw new Error(`create payment: ${r.status} ${JSON.stringify(p)}`);
      const { key, ...utxo } = funded.utxos[from + i];
      const tx = wallet.buildPaymentTx(p.payment, { network, utxos: [utxo], keys: [key ?? funded.key] });
      const body = { id: p.id, tx: tx.hex, refund: funded.address };
      if (p.payment.relay_token) body.relay_token = p.payment.relay_token;
      bodies[i] = JSON.stringify(body);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return bodies;
}

/**
 * Submits every body once with `connections` clients in all, split evenly over `urls` (body i
 * to the process that created its payment), and adds up: accepted/s over the slower half's time.
 */
export async function firePaySplit(urls, bodies, connections) {
  const parts = urls.map((url, u) => ({ url, bodies: bodies.filter((_, i) => i % urls.length === u) }));
  const runs = await Promise.all(parts.map((p) => firePay(p.url, p.bodies, Math.max(1, Math.floor(connections / urls.length)))));
  const seconds = Math.max(...runs.map((r) => r.seconds));
  const accepted = runs.reduce((s, r) => s + r.accepted, 0);
  const other = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.other)) other[k] = (other[k] ?? 0) + v;
  return {
    connections,
    submitted: runs.reduce((s, r) => s + r.submitted, 0),
    accepted,
    seconds,
    accepted_per_sec: Math.round(accepted / seconds),
    p50_ms: Math.max(...runs.map((r) => r.p50_ms)),
    p99_ms: Math.max(...runs.map((r) => r.p99_ms)),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    other,
    per_process: runs.map((r) => ({ accepted: r.accepted, seconds: r.seconds, accepted_per_sec: r.accepted_per_sec })),
  };
}
