// Latency of every request, exactly: `connections` keep-alive clients spread over several web
// processes (client i talks to `targets[i % targets.length]`), each sending its next request as
// soon as the last is answered, for `seconds`. Unlike two autocannon runs side by side, the
// percentiles are over all the requests of all the processes together.
import http from 'node:http';

function send(agent, base, { method = 'GET', path, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const u = new URL(path, base);
    const req = http.request(
      {
        agent,
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null);
const ms = (x) => (x === null ? null : Math.round(x * 100) / 100);

/**
 * `next(k)` gives the k-th request ({ method, path, headers, body }). Returns requests/s,
 * p50/p99/max in ms, and answers by status class; requests of `warmupSeconds` are not counted.
 */
export async function measureLatency({ targets, connections, seconds, warmupSeconds = 0, next }) {
  let k = 0;
  const samples = [];
  const status = { '2xx': 0, '4xx': 0, '5xx': 0, other: 0 };
  let errors = 0;
  const started = Date.now();
  const countFrom = started + warmupSeconds * 1000;
  const end = countFrom + seconds * 1000;
  async function client(i) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const base = targets[i % targets.length];
    try {
      while (Date.now() < end) {
        const t0 = process.hrtime.bigint();
        let code;
        try {
          code = await send(agent, base, next(k++));
        } catch {
          errors++;
          continue;
        }
        if (Date.now() < countFrom) continue;
        samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
        const cls = `${Math.floor(code / 100)}xx`;
        status[cls in status ? cls : 'other']++;
      }
    } finally {
      agent.destroy();
    }
  }
  await Promise.all(Array.from({ length: connections }, (_, i) => client(i)));
  const sorted = Float64Array.from(samples).sort();
  return {
    connections,
    processes: targets.length,
    total: sorted.length,
    rps: Math.round(sorted.length / seconds),
    p50_ms: ms(pct(sorted, 50)),
    p99_ms: ms(pct(sorted, 99)),
    max_ms: ms(sorted.length ? sorted[sorted.length - 1] : null),
    errors,
    status,
  };
}
