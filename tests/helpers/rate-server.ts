// A local stand-in for the five rate providers (docs/api.md#exchange-rates): one node:http server on a free
// loopback port that answers each provider's documented path in that provider's real response
// format, driven per provider by a scenario the test sets (good, slow, 500, reset, garbage...).
// Point RATE_URL_<NAME> at `url`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProviderId = 'coingecko' | 'kraken' | 'coinbase' | 'binance' | 'bitstamp';

export type Scenario =
  | { kind: 'good'; value: string } // the price's decimal text
  | { kind: 'raw'; value: string } // the price field's raw JSON token (e.g. 1e400, "NaN", -0.1)
  | { kind: 'slow'; ms: number; value: string }
  | { kind: 'status'; status: number } // e.g. 500 with an HTML page
  | { kind: 'reset' } // the connection is dropped without a reply
  | { kind: 'html' }
  | { kind: 'wrong-shape' }
  | { kind: 'body'; text: string };

export interface RateServer {
  url: string;
  set(p: ProviderId, s: Scenario): void;
  setAll(s: Scenario): void;
  /** Paths asked, in order. */
  requests: string[];
  close(): Promise<void>;
}

export function providerOf(path: string): ProviderId | null {
  if (path.startsWith('/api/v3/simple/price')) return 'coingecko';
  if (path.startsWith('/0/public/Ticker')) return 'kraken';
  if (path.startsWith('/v2/exchange-rates')) return 'coinbase';
  if (path.startsWith('/api/v3/ticker/price')) return 'binance';
  if (path.startsWith('/api/v2/ticker/')) return 'bitstamp';
  return null;
}

/** The provider's real reply for a price whose JSON token is `token` (quoted or not). */
export function providerBody(p: ProviderId, url: URL, token: string): string {
  switch (p) {
    case 'coingecko': {
      const vs = url.searchParams.get('vs_currencies') ?? 'usd';
      return `{"dogecoin":{"${vs}":${token}}}`;
    }
    case 'kraken': {
      const pair = url.searchParams.get('pair') ?? 'XDGUSD';
      return `{"error":[],"result":{"${pair}":{"a":["0.1","1","1.000"],"b":["0.1","1","1.000"],"c":[${token},"100.00000000"],"v":["1","2"],"p":["0.1","0.1"],"t":[1,2],"l":["0.1","0.1"],"h":["0.1","0.1"],"o":"0.1"}}}`;
    }
    case 'coinbase':
      return `{"data":{"currency":"DOGE","rates":{"EUR":"0.1","USD":${token},"BRL":"0.6","JPY":"19"}}}`;
    case 'binance':
      return `{"symbol":"${url.searchParams.get('symbol') ?? ''}","price":${token}}`;
    case 'bitstamp':
      return `{"timestamp":"1763956800","open":"0.1","high":"0.2","low":"0.1","last":${token},"volume":"1.0","vwap":"0.1","bid":"0.1","ask":"0.1"}`;
  }
}

const quoted = (p: ProviderId, v: string) => (p === 'coingecko' ? v : JSON.stringify(v));

export async function startRateServer(initial: Scenario = { kind: 'good', value: '0.1' }): Promise<RateServer> {
  const scenarios = new Map<ProviderId, Scenario>();
  const requests: string[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(req.url ?? '');
    const p = providerOf(url.pathname);
    if (!p) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const s = scenarios.get(p) ?? initial;
    const send = (status: number, body: string, type = 'application/json') => res.writeHead(status, { 'content-type': type }).end(body);
    switch (s.kind) {
      case 'good':
        return send(200, providerBody(p, url, quoted(p, s.value)));
      case 'raw':
        return send(200, providerBody(p, url, s.value));
      case 'slow': {
        const t = setTimeout(() => {
          timers.delete(t);
          if (!res.destroyed) send(200, providerBody(p, url, quoted(p, s.value)));
        }, s.ms);
        timers.add(t);
        return;
      }
      case 'status':
        return send(s.status, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html');
      case 'reset':
        req.socket.destroy();
        return;
      case 'html':
        return send(
          200,
          '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>checking your browser</body></html>',
          'text/html',
        );
      case 'wrong-shape':
        return send(200, '{"status":"ok","data":[1,2,3]}');
      case 'body':
        return send(200, s.text);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (p, s) => void scenarios.set(p, s),
    setAll: (s) => {
      for (const p of ['coingecko', 'kraken', 'coinbase', 'binance', 'bitstamp'] as const) scenarios.set(p, s);
    },
    requests,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** RATE_URL_* for every provider, pointing at `url`. */
export function rateEnv(url: string): Record<string, string> {
  return Object.fromEntries(['COINGECKO', 'KRAKEN', 'COINBASE', 'BINANCE', 'BITSTAMP'].map((n) => [`RATE_URL_${n}`, url]));
}
