// Shared pieces of the `live` and `detect` benchmarks (docs/live.md): an app on a chosen backend
// (devnet, or rpc / spv against a regtest dogecoind that whitelists loopback), API keys for many
// streams, and SSE streams on GET /api/v1/payments/<id>/events read with node:http that note
// when each payment status first arrives.
import http from 'node:http';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createJiti } from 'jiti';
import { ROOT, startApp } from './app.mjs';
import { regtestXpub } from './pay-prep.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });
const PASSWORD = 'bench live password 1';

export async function dogecoindHelper() {
  return jiti.import(join(ROOT, 'tests/helpers/dogecoind.ts'));
}

/**
 * A regtest dogecoind, or null without the binary. By default its P2P side whitelists loopback
 * (tx announcements at once); `whitelist: false` leaves the node's randomised announcement delay.
 */
export async function startNode({ whitelist = true } = {}) {
  const h = await dogecoindHelper();
  if (!h.haveDogecoind) return null;
  return h.startDogecoind({ args: whitelist ? ['-whitelist=127.0.0.1'] : [] });
}

/** The app on `backend` ('devnet' | 'rpc' | 'spv'), with an owner who can make API keys. */
export async function startLiveApp(backend, node, { dataDir, env = {} } = {}) {
  const key = 'bench-' + randomBytes(16).toString('hex');
  const chain =
    backend === 'devnet'
      ? { CHAIN_BACKEND: 'devnet', DEVNET_BLOCK_SECONDS: '0' }
      : backend === 'rpc'
        ? { CHAIN_BACKEND: 'rpc', DOGE_RPC_URL: node.rpcUrl, DOGE_PEERS: `127.0.0.1:${node.p2pPort}` }
        : { CHAIN_BACKEND: 'spv', DOGE_PEERS: `127.0.0.1:${node.p2pPort}` };
  const app = await startApp(
    {
      DOGE_NETWORK: 'regtest',
      STORE_XPUB: await regtestXpub(),
      BOOTSTRAP_API_KEY: key,
      ADMIN_EMAIL: 'owner@bench.test',
      ADMIN_PASSWORD: PASSWORD,
      ...chain,
      ...env,
    },
    { dataDir },
  );
  // Ready: synced (spv) and the worker running, so a payment can be taken.
  const end = Date.now() + 60_000;
  for (;;) {
    const h = await fetch(`${app.url}/api/health`)
      .then((r) => r.json())
      .catch(() => null);
    if (h?.ready) break;
    if (Date.now() > end) throw new Error(`app on ${backend} not ready: ${JSON.stringify(h)}\n${app.logs()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { app, key };
}

/** `n` read-only API keys (10 streams each may be open at once, docs/api.md#live-updates). */
export async function streamKeys(app, n) {
  const login = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'owner@bench.test', password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = (await login.json()).csrf_token;
  const keys = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(`${app.url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `bench stream ${i}`, scopes: ['payments:read'] }),
    });
    if (r.status !== 201) throw new Error(`api key: ${r.status}`);
    keys.push((await r.json()).secret);
  }
  return keys;
}

export async function newPayment(app, key, unit = '1') {
  const r = await fetch(`${app.url}/api/v1/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Bench', count: 1, unit }] }),
  });
  const body = await r.json();
  if (r.status !== 201) throw new Error(`create payment: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Opens the payment's event stream; resolves once its first `payment` event is in. `at(status)`
 * is the performance.now() at which that status first arrived.
 */
export function openStream(app, id, key) {
  return new Promise((resolve, reject) => {
    const seen = new Map();
    let first = null;
    const req = http.get(
      `${app.url}/api/v1/payments/${id}/events`,
      { headers: { Authorization: `Bearer ${key}` }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`stream ${id}: ${res.statusCode}`));
        }
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          const now = performance.now();
          buf += d;
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const m = /^event: payment\ndata: (.*)$/m.exec(block);
            if (!m) continue;
            const status = JSON.parse(m[1]).status;
            if (!seen.has(status)) seen.set(status, now);
            if (!first) {
              first = true;
              resolve({ at: (s) => seen.get(s), close: () => req.destroy() });
            }
          }
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', (e) => (first ? undefined : reject(e)));
  });
}

/** Waits until `fn()` is a number (or the time is up: null). */
export async function waitFor(fn, ms = 15_000) {
  const end = performance.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined && v !== null) return v;
    if (performance.now() > end) return null;
    await new Promise((r) => setTimeout(r, 1));
  }
}

export function percentiles(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => (s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]) : null);
  return { n: s.length, p50_ms: q(0.5), p99_ms: q(0.99), max_ms: s.length ? Math.round(s.at(-1)) : null };
}
