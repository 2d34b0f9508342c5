// Rate sources against a local server that answers in each provider's real format (
// docs/api.md#exchange-rates): good, slow, down, garbage and wildly-off scenarios for every provider; the outcomes
// saved in `rate_source` (PGlite and PostgreSQL) and the rate in force read back from there.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDb, type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { loadRateConfig, type RateConfig } from '@/lib/rates/config';
import { fetchSource } from '@/lib/rates/fetch-source';
import { refreshRates, startRateLoop } from '@/lib/rates/refresh';
import { rateInForce, rateCurrency, rateCurrencies, ratesSnapshot, RateUnavailableError } from '@/lib/rates/store';
import { ratesReply } from '@/lib/rates/view';
import { fiatToKoinu, formatDecimal } from '@/lib/money';
import { startRateServer, rateEnv, type ProviderId, type RateServer, type Scenario } from '../helpers/rate-server';
import { startPostgres, createDatabase, type PgServer } from '../helpers/postgres';

const ALL: ProviderId[] = ['coingecko', 'kraken', 'coinbase', 'binance', 'bitstamp'];
let srv: RateServer;
let closedPort: number;

beforeAll(async () => {
  srv = await startRateServer();
  // a port nobody listens on: bind one, note it, close it
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  closedPort = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
});
afterAll(async () => {
  await srv?.close();
});

function spec(p: ProviderId, url = srv.url) {
  return loadRateConfig({ RATE_SOURCES: p, [`RATE_URL_${p.toUpperCase()}`]: url }).sources[0];
}

// A source that answers gets plenty of time (a loaded CI machine); the slow scenario its own short timeout.
async function outcome(p: ProviderId, s: Scenario, currency = 'USD', timeoutMs = 5_000) {
  srv.set(p, s);
  const o = await fetchSource(spec(p), currency, { timeoutMs });
  return o.ok ? `ok ${formatDecimal(o.value)}` : `error ${o.error}`;
}

describe.each(ALL)('%s in its real reply format', (p) => {
  it('good: the exact price', async () => {
    expect(await outcome(p, { kind: 'good', value: '0.12345678' })).toBe('ok 0.12345678');
    expect(srv.requests.at(-1)).toMatch(p === 'binance' ? /symbol=DOGEUSDT$/ : p === 'kraken' ? /pair=XDGUSD$/ : /./);
  });

  it('good in another currency: the path asks for it', async () => {
    if (p === 'coinbase') return; // one reply holds every currency
    srv.set(p, { kind: 'good', value: '0.1141' });
    const o = await fetchSource(spec(p), 'EUR', { timeoutMs: 5_000 });
    expect(o.ok && formatDecimal(o.value)).toBe('0.1141');
    expect(srv.requests.at(-1)!.toLowerCase()).toContain('eur');
  });

  it('slow (beyond the timeout): an error, within the timeout', async () => {
    const t0 = Date.now();
    expect(await outcome(p, { kind: 'slow', ms: 10_000, value: '0.1' }, 'USD', 400)).toBe('error no reply within 0.4 s');
    expect(Date.now() - t0).toBeLessThan(5_000); // half the source's delay: it was not waited out
  });

  it('down: connection refused, reset, HTTP 500', async () => {
    srv.set(p, { kind: 'good', value: '0.1' });
    const refused = await fetchSource(spec(p, `http://127.0.0.1:${closedPort}`), 'USD', { timeoutMs: 400 });
    expect(refused).toEqual({ ok: false, error: 'connection failed (ECONNREFUSED)' });
    // a port fetch() refuses to dial (the app-server helper's default) says why
    expect(await fetchSource(spec(p, 'http://127.0.0.1:9'), 'USD', { timeoutMs: 400 })).toEqual({
      ok: false,
      error: 'fetch failed: bad port',
    });
    expect(await outcome(p, { kind: 'reset' })).toMatch(/^error (connection failed|.*(socket|terminated|closed))/i);
    expect(await outcome(p, { kind: 'status', status: 500 })).toMatch(/^error HTTP 500: <html>/);
  });

  it('garbage: HTML, wrong shape, negative, zero, "NaN", 1e400, absurd, oversized', async () => {
    expect(await outcome(p, { kind: 'html' })).toMatch(/^error invalid JSON/);
    expect(await outcome(p, { kind: 'wrong-shape' })).toMatch(new RegExp(`^error ${p}: (unexpected reply|no )`));
    expect(await outcome(p, { kind: 'good', value: '-0.1234' })).toMatch(/^error rate -0.1234 is not positive/);
    expect(await outcome(p, { kind: 'good', value: '0' })).toMatch(/^error rate 0 is not positive/);
    expect(await outcome(p, { kind: 'raw', value: '"NaN"' })).toMatch(/^error price "NaN" is not a decimal number/);
    expect(await outcome(p, { kind: 'raw', value: 'NaN' })).toMatch(/^error invalid JSON/);
    expect(await outcome(p, { kind: 'raw', value: '1e400' })).toMatch(/^error price "1e400" is not a decimal number/);
    expect(await outcome(p, { kind: 'raw', value: '"Infinity"' })).toMatch(/not a decimal number/);
    expect(await outcome(p, { kind: 'raw', value: 'null' })).toMatch(new RegExp(`^error ${p}: unexpected reply`));
    expect(await outcome(p, { kind: 'good', value: '123456789012' })).toMatch(/implausibly large/);
    expect(await outcome(p, { kind: 'body', text: `{"pad":"${'x'.repeat(100_000)}"}` })).toMatch(/larger than 65536 bytes/);
  });
});

describe('a kept-alive connection the provider closed while idle', () => {
  it('is asked again on a fresh connection, not counted as the source being down', async () => {
    // Like a provider whose idle timeout ends just as the next refresh reuses the socket: every
    // request that arrives on a socket that has already served one is dropped without a reply.
    const served = new WeakSet<object>();
    const body = JSON.stringify({ dogecoin: { usd: 0.1 } });
    const server = (await import('node:http')).createServer((req, res) => {
      if (served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (let i = 0; i < 3; i++) {
        const o = await fetchSource(spec('coingecko', url), 'USD', { timeoutMs: 5_000 });
        expect(o.ok ? formatDecimal(o.value) : o.error).toBe('0.1');
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('fixed:<value>', () => {
  it('is its value, whatever the currency', async () => {
    const o = await fetchSource(loadRateConfig({ RATE_SOURCES: 'fixed:0.125' }).sources[0], 'EUR');
    expect(o.ok && formatDecimal(o.value)).toBe('0.125');
  });
});

let pg: PgServer | undefined;
afterAll(async () => {
  await pg?.stop();
});

describe.each(['pglite', 'postgresql'] as const)('rate_source on %s', (kind) => {
  let db: Db;
  let cfg: RateConfig;
  beforeAll(async () => {
    if (kind === 'postgresql') {
      pg ??= await startPostgres();
      db = await openMigratedDb({ databaseUrl: await createDatabase(pg, `rates_${process.pid}`) });
    } else {
      db = await openTestDb();
    }
    cfg = loadRateConfig({ ...rateEnv(srv.url), RATE_SOURCES: 'coingecko,kraken,coinbase,binance,bitstamp', RATE_MAX_AGE_SEC: '600' });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('wildly off: one source at 10× leaves the median where the others are', async () => {
    srv.setAll({ kind: 'good', value: '0.1234' });
    srv.set('kraken', { kind: 'good', value: '1.234' });
    srv.set('coinbase', { kind: 'good', value: '0.1236' });
    srv.set('binance', { kind: 'good', value: '0.1235' });
    srv.set('bitstamp', { kind: 'status', status: 500 });
    const t0 = new Date();
    await refreshRates(db, cfg, 'USD', { timeoutMs: 5_000, now: () => t0 });
    const r = await rateInForce(db, 'USD', { config: cfg, now: t0 });
    expect(r).toMatchObject({ pair: 'DOGE/USD', currency: 'USD', value: '0.12355', source: 'coingecko,kraken,coinbase,binance', at: t0 });
    expect(fiatToKoinu(100n, 'USD', r.decimal)).toBe(809_388_911n); // $1.00 / 0.12355 = 8.09388911371…
    // three sources, one at 10×: the median is one of the sane two's range
    const three = loadRateConfig({ ...rateEnv(srv.url), RATE_SOURCES: 'coingecko,kraken,coinbase' });
    expect((await rateInForce(db, 'USD', { config: three, now: t0 })).value).toBe('0.1236');
  });

  it('two sources down and the third 10× off: 503 rate_unavailable, not a price 10× off', async () => {
    // three sources in their real formats; the store prices a USD 2.75 sale
    const three = loadRateConfig({ ...rateEnv(srv.url), RATE_SOURCES: 'coingecko,kraken,coinbase', RATE_MAX_AGE_SEC: '600' });
    const t0 = new Date(Date.now() - 3_000_000_000); // its own past: the other tests' USD rows are newer
    const at = (sec: number) => new Date(t0.getTime() + sec * 1000);
    srv.setAll({ kind: 'good', value: '0.1' });
    await refreshRates(db, three, 'USD', { timeoutMs: 5_000, now: () => t0 });
    expect(fiatToKoinu(275n, 'USD', (await rateInForce(db, 'USD', { config: three, now: t0 })).decimal)).toBe(2_750_000_000n); // 27.5 DOGE
    expect(await db.prisma.rateMedian.findUnique({ where: { currency: 'USD' } })).toMatchObject({
      value: '0.1',
      valueAt: t0,
      sources: 'coingecko,kraken,coinbase',
    });

    // kraken answers 500, coinbase drops the connection, coingecko says 1.0 instead of 0.1
    srv.set('kraken', { kind: 'status', status: 500 });
    srv.set('coinbase', { kind: 'reset' });
    srv.set('coingecko', { kind: 'good', value: '1.0' });
    await refreshRates(db, three, 'USD', { timeoutMs: 5_000, now: () => at(300) });
    // while the two dead sources' last values are fresh, the median of three absorbs the bad one
    expect((await rateInForce(db, 'USD', { config: three, now: at(300) })).value).toBe('0.1');
    await refreshRates(db, three, 'USD', { timeoutMs: 5_000, now: () => at(700) });
    // once they are stale, coingecko is alone: 10× the last agreed median, so no rate at all
    await expect(rateInForce(db, 'USD', { config: three, now: at(700) })).rejects.toThrow(RateUnavailableError);
    await expect(rateInForce(db, 'USD', { config: three, now: at(700) })).rejects.toThrow(
      /only coingecko answered within the last 600 s, and its 1 is more than 20% from 0.1/,
    );
    await expect(ratesReply(db, 1, { config: three, now: at(700) })).rejects.toThrow(RateUnavailableError);
    // the lone source never became the yardstick for itself
    expect((await db.prisma.rateMedian.findUnique({ where: { currency: 'USD' } }))?.value).toBe('0.1');

    // the lone source sane again (within ±20% of 0.1): it is the rate, named as the only source
    srv.set('coingecko', { kind: 'good', value: '0.11' });
    await refreshRates(db, three, 'USD', { timeoutMs: 5_000, now: () => at(800) });
    expect(await rateInForce(db, 'USD', { config: three, now: at(800) })).toMatchObject({ value: '0.11', source: 'coingecko' });
    // ... but only while the agreed median is at most 6 × RATE_MAX_AGE_SEC (3600 s) old
    await refreshRates(db, three, 'USD', { timeoutMs: 5_000, now: () => at(3601) });
    await expect(rateInForce(db, 'USD', { config: three, now: at(3601) })).rejects.toThrow(
      /no rate that two or more sources agreed on in the last 3600 s/,
    );

    // a store that configured coingecko alone trusts it as before, even at 1.0
    srv.set('coingecko', { kind: 'good', value: '1.0' });
    const single = loadRateConfig({ ...rateEnv(srv.url), RATE_SOURCES: 'coingecko', RATE_MAX_AGE_SEC: '600' });
    await refreshRates(db, single, 'USD', { timeoutMs: 5_000, now: () => at(3700) });
    expect((await rateInForce(db, 'USD', { config: single, now: at(3700) })).value).toBe('1');
  });

  it('a failure keeps the last good value and records the error; the snapshot lists every source in order', async () => {
    const t0 = new Date(Date.now() - 60_000);
    srv.setAll({ kind: 'good', value: '0.2' });
    await refreshRates(db, cfg, 'EUR', { timeoutMs: 5_000, now: () => t0 });
    srv.set('kraken', { kind: 'html' });
    const t1 = new Date();
    await refreshRates(db, cfg, 'EUR', { timeoutMs: 5_000, now: () => t1 });
    const snap = await ratesSnapshot(db, 'EUR', { config: cfg, now: t1 });
    expect(snap.sources.map((s) => s.name)).toEqual(['coingecko', 'kraken', 'coinbase', 'binance', 'bitstamp']);
    const k = snap.sources[1];
    expect(k).toMatchObject({ value: '0.2', at: t0.toISOString(), ok: false, checked_at: t1.toISOString() });
    expect(k.error).toMatch(/invalid JSON/);
    expect(snap.sources[0]).toMatchObject({ value: '0.2', at: t1.toISOString(), ok: true, error: '' });
  });

  it('a stale rate (older than RATE_MAX_AGE_SEC) is not used: 503 rate_unavailable', async () => {
    const t0 = new Date(Date.now() - 3_600_000);
    srv.setAll({ kind: 'good', value: '0.3' });
    await refreshRates(db, cfg, 'BRL', { timeoutMs: 5_000, now: () => t0 });
    expect((await rateInForce(db, 'BRL', { config: cfg, now: new Date(t0.getTime() + 600_000) })).value).toBe('0.3');
    const late = new Date(t0.getTime() + 601_000);
    await expect(rateInForce(db, 'BRL', { config: cfg, now: late })).rejects.toThrow(RateUnavailableError);
    await expect(rateInForce(db, 'BRL', { config: cfg, now: late })).rejects.toThrow(/no rate source answered within the last 600 s/);
    // a currency never fetched
    await expect(rateInForce(db, 'CHF', { config: cfg })).rejects.toMatchObject({ code: 'rate_unavailable' });
  });

  it('the currency rates are kept for follows pricing_currency, else the display currency, else USD', async () => {
    expect(await rateCurrency(db, 1)).toBe('USD');
    await db.prisma.store.upsert({ where: { id: 1 }, update: { fiatCurrency: 'EUR' }, create: { id: 1, fiatCurrency: 'EUR' } });
    expect(await rateCurrency(db, 1)).toBe('EUR');
    await db.prisma.store.update({ where: { id: 1 }, data: { pricingCurrency: 'BRL' } });
    expect(await rateCurrency(db, 1)).toBe('BRL');
    // BRL's only values are an hour old
    await expect(ratesReply(db, 1, { config: cfg, now: new Date() })).rejects.toMatchObject({ code: 'rate_unavailable' });
    await db.prisma.store.update({ where: { id: 1 }, data: { pricingCurrency: 'DOGE', fiatCurrency: '' } });
  });

  it("each store's rates are in its own currency, and the worker fetches every store's currency once", async () => {
    await db.prisma.store.create({ data: { id: 2, name: 'Second store', pricingCurrency: 'EUR' } });
    await db.prisma.store.create({ data: { id: 3, name: 'Third store', fiatCurrency: 'EUR' } });
    try {
      expect(await rateCurrency(db, 1)).toBe('USD');
      expect(await rateCurrency(db, 2)).toBe('EUR');
      expect(await rateCurrencies(db)).toEqual(['USD', 'EUR']);
    } finally {
      await db.prisma.store.deleteMany({ where: { id: { in: [2, 3] } } });
    }
  });

  it('the refresh loop fetches at once, then every RATE_REFRESH_SEC, and stops promptly', async () => {
    srv.setAll({ kind: 'good', value: '0.4' });
    const quick = { ...cfg, refreshSec: 1 };
    const loop = startRateLoop(db, quick, { timeoutMs: 1000 });
    const until = Date.now() + 5000;
    while (
      (await ratesSnapshot(db, 'USD', { config: quick })).rate.ok === false ||
      formatDecimal((await rateInForce(db, 'USD', { config: quick })).decimal) !== '0.4'
    ) {
      if (Date.now() > until) throw new Error('the loop did not refresh');
      await new Promise((r) => setTimeout(r, 100));
    }
    srv.setAll({ kind: 'slow', ms: 10_000, value: '0.5' });
    await new Promise((r) => setTimeout(r, 1200)); // the next tick is now waiting on slow sources
    const t0 = Date.now();
    await loop.stop();
    expect(Date.now() - t0).toBeLessThan(5_000); // aborted, not waited out (the sources take 10 s)
    expect((await rateInForce(db, 'USD', { config: quick })).value).toBe('0.4');
  });
});
