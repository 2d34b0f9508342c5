// Fault test (docs/operations.md#readiness): PostgreSQL stopped for 10 s while the app is under load. Every request
// during the outage gets 503 (never 500, never a hang past the client's patience), the process
// stays up, and it recovers by itself once the server is back: no restart, no lost payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';
import { startApp, type AppServer } from '../helpers/app-server';
import { DGUB } from '../helpers/keys';
import { until } from '../helpers/wait';

const KEY = 'fault-pg-key-' + randomBytes(12).toString('hex');
let pg: PgServer;
let app: AppServer;

async function req(method: string, path: string, body?: unknown) {
  try {
    const r = await fetch(app.url + path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  } catch (e) {
    return { status: -1, body: String(e) }; // connection error or our 15 s patience ran out
  }
}
const create = () => req('POST', '/api/v1/payments', { items: [{ type: 'item', id: 'a', name: 'A', count: 1, unit: '1' }] });

beforeAll(async () => {
  pg = await startPostgres();
  const url = await createDatabase(pg, 'fault');
  app = await startApp({ STORE_XPUB: DGUB, BOOTSTRAP_API_KEY: KEY, DATABASE_URL: url, RATE_LIMIT_RPS: '0' });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await pg?.stop();
});

describe('PostgreSQL outage under load', () => {
  it('answers 503 (not 500) while the database is down, then recovers by itself', async () => {
    const before = await create();
    expect(before.status).toBe(201);
    const id = before.body.id;
    const seen: { phase: string; endPhase: string; status: number; path: string }[] = [];
    let phase = 'before';
    let running = true;
    // Four clients in a loop: create, status, read, list, envelope, health.
    const calls: [string, () => Promise<{ status: number }>][] = [
      ['create', create],
      ['status', () => req('POST', '/relay/status', { id })],
      ['read', () => req('GET', `/api/v1/payments/${id}`)],
      ['list', () => req('GET', '/api/v1/payments?limit=5')],
      ['envelope', () => req('GET', `/dc/${id}`)],
      ['health', () => req('GET', '/api/health')],
    ];
    const client = async () => {
      let i = Math.floor(Math.random() * calls.length);
      while (running) {
        const [path, call] = calls[i++ % calls.length];
        const p = phase;
        const r = await call();
        seen.push({ phase: p, endPhase: phase, status: r.status, path });
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const clients = Array.from({ length: 4 }, client);
    // Each kind of call answered before the outage, and each answered twice during it (a 503, or a request that finished before the stop).
    const answered = (ph: string, n: number) => () =>
      calls.every(([path]) => seen.filter((s) => s.phase === ph && s.endPhase === ph && s.path === path).length >= n);
    await until(answered('before', 1), Boolean, 15_000);
    pg.pause();
    phase = 'outage';
    await until(answered('outage', 2), Boolean, 30_000);
    pg.start();
    phase = 'after';
    // Recovery: requests succeed again without restarting the app.
    const deadline = Date.now() + 30_000;
    let recovered = false;
    while (Date.now() < deadline && !recovered) {
      const [c, s] = await Promise.all([create(), req('POST', '/relay/status', { id })]);
      recovered = c.status === 201 && s.status === 200;
      if (!recovered) await new Promise((r) => setTimeout(r, 500));
    }
    running = false;
    await Promise.all(clients);

    expect(recovered).toBe(true);
    const outage = seen.filter((s) => s.phase === 'outage');
    expect(seen.filter((s) => s.status >= 500 && s.status !== 503).map((s) => `${s.phase} ${s.path} ${s.status}`)).toEqual([]);
    expect(seen.filter((s) => s.status === -1).map((s) => `${s.phase} ${s.path}`)).toEqual([]);
    expect(outage.filter((s) => s.status === 503).length).toBeGreaterThan(0);
    // Every outage answer is a 503 or a correct answer (a request that finished before the stop).
    for (const s of outage) expect([200, 201, 404, 503]).toContain(s.status);
    expect(
      seen
        .filter((s) => s.endPhase === 'before')
        .map((s) => s.status)
        .filter((st) => st >= 300),
    ).toEqual([]);
    // The payment made before the outage is intact, and the health check is green again.
    expect((await req('GET', `/api/v1/payments/${id}`)).body).toMatchObject({ id, status: 'unpaid' });
    expect((await req('GET', '/api/health')).body).toMatchObject({ ok: true, db: 'postgresql' });
    expect(app.logs()).not.toMatch(/unhandled error in route/);
  }, 90_000);
});
