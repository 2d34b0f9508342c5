// /relay/pay for the `stores` benchmark: the bodies are bench/lib/pay-prep.mjs's
// (preparePayBodiesOn, each store's own key on both web processes), each submitted once by
// clients split over the web processes.
import { firePay } from '../pay.mjs';

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
