// Load generation with autocannon: requests per second and latency percentiles.
import autocannon from 'autocannon';

/**
 * Runs autocannon against `url` for `seconds` with `connections` clients. `requests` are
 * autocannon request objects; `bodies` (optional) are cycled through as POST bodies.
 */
export async function load({ url, connections = 64, seconds = 10, method = 'GET', bodies, paths, headers = {}, warmupSeconds = 0 }) {
  const opts = (duration) => {
    const o = { url, connections, duration, method, headers: { 'content-type': 'application/json', ...headers }, pipelining: 1 };
    if (bodies?.length) {
      let i = 0;
      o.requests = [{ method, setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length] }) }];
    } else if (paths?.length) {
      let i = 0;
      o.requests = [{ method, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }];
    }
    return o;
  };
  // Prime the route first: Next.js loads a route's module on its first request.
  const first = paths?.length ? new URL(paths[0], url).href : url;
  await fetch(first, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: bodies?.length ? bodies[0] : undefined,
  }).then((r) => r.arrayBuffer());
  if (warmupSeconds > 0) await autocannon(opts(warmupSeconds));
  const r = await autocannon(opts(seconds));
  return {
    rps: Math.round(r.requests.average),
    total: r.requests.total,
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    status: { '2xx': r['2xx'], '4xx': r['4xx'], '5xx': r['5xx'] },
  };
}
