// The real built app, started as `next start`: migrations at startup, /api/health on PGlite and
// on PostgreSQL, 503 (never 500) when PostgreSQL goes away, and recovery when it comes back. The
// mainnet app (no WALLET_CHECK) also shows that the wallet check is absent there, while the testnet
// one serves it (docs/wallet-check.md#where-it-runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb } from '@/lib/db';
import { startApp, type AppServer } from '../helpers/app-server';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';

describe('app on embedded PGlite', () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => app?.stop());

  it('answers /api/health with ok, versions and db "pglite"', async () => {
    const r = await fetch(`${app.url}/api/health`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toContain('no-store');
    const body = await r.json();
    expect(body).toEqual({
      ok: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      network: 'mainnet',
      backend: 'spv',
      db: 'pglite',
      chain: { tip: 0, synced: false, peers: 0 },
      // Not ready (docs/operations.md#readiness): tests/integration/readiness.test.ts covers the problems.
      ready: false,
      problems: expect.arrayContaining([expect.objectContaining({ code: 'no_wallet' })]),
    });
  });

  it('serves a home page that links to the cashier screen and the back office', async () => {
    const r = await fetch(`${app.url}/`);
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('Counter');
    expect(html).toMatch(/href="\/pos"/);
    expect(html).toMatch(/href="\/admin"/);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it("on mainnet without WALLET_CHECK=on, the wallet check's page and routes answer 404 and start nothing", async () => {
    const page = await fetch(`${app.url}/wallet-check`);
    expect(page.status).toBe(404);
    const asked = [
      ['POST', '/api/wallet-check/runs'],
      ['GET', '/api/wallet-check/runs/wcr_AAAAAAAAAAAAAAAAAAAAAA'],
      ['POST', '/api/wallet-check/runs/wcr_AAAAAAAAAAAAAAAAAAAAAA/finish'],
    ] as const;
    for (const [method, path] of asked) {
      const r = await fetch(`${app.url}${path}`, { method });
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
      expect(await r.json()).toMatchObject({ error: 'not_found' });
    }
    // A case's envelope is not served either (no run could have made one; the id is refused unread).
    expect((await fetch(`${app.url}/dc/wc_AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });

  it('logs structured startup lines without secrets', () => {
    const lines = app
      .logs()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const started = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'counter started');
    expect(started).toMatchObject({ level: 'info', db: 'pglite', network: 'mainnet' });
    expect(started.relayPubkey).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('app on a real PostgreSQL server', () => {
  let pg: PgServer;
  let app: AppServer;
  let url: string;
  beforeAll(async () => {
    pg = await startPostgres();
    url = await createDatabase(pg, 'counter_app');
    app = await startApp({ DATABASE_URL: url, DOGE_NETWORK: 'testnet' });
  });
  afterAll(async () => {
    await app?.stop();
    await pg?.stop();
  });

  it('serves the wallet check on testnet without WALLET_CHECK', async () => {
    expect((await fetch(`${app.url}/wallet-check`)).status).toBe(200);
  });

  it('migrates at startup and reports db "postgresql"', async () => {
    const body = await (await fetch(`${app.url}/api/health`)).json();
    expect(body).toMatchObject({ ok: true, db: 'postgresql', network: 'testnet' });
    const db = await openMigratedDb({ databaseUrl: url });
    try {
      const rows = await db.query<{ n: unknown }>('SELECT count(*) AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL');
      expect(Number(rows[0].n)).toBeGreaterThan(0);
      expect(await db.prisma.relayKey.count({ where: { active: true } })).toBe(1);
      expect(await db.prisma.store.count()).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('answers 503 with ok:false while the database is down, and recovers by itself', async () => {
    pg.pause();
    const down = await fetch(`${app.url}/api/health`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      ok: false,
      db: 'postgresql',
      ready: false,
      problems: [{ code: 'db_unreachable', message: expect.stringContaining('database') }],
    });
    pg.start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${app.url}/api/health`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});
