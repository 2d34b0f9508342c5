// JSON-RPC client over HTTP, against a tiny local HTTP server: Basic auth and exact amounts, HTTP
// and JSON-RPC errors mapped to RpcError or unavailability, timeouts and batches. Its amount and
// URL parsing is rpc-client-parsing.test.ts; the rpc backend's mapping of Core's answers is
// rpc-backend-errors.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { RpcError, RpcUnavailableError, createRpcClient } from '../../lib/chain/rpc/client';
import { freePort } from '../helpers/ports';

type SentCall = { jsonrpc?: string; id?: number; method: string; params?: unknown[] };
type Handler = (body: SentCall, req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let port: number;
let handler: Handler;
const sockets = new Set<Socket>();
const seen: { auth?: string; connection?: string; body: unknown }[] = [];

function json(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      seen.push({ auth: req.headers.authorization, connection: req.headers.connection, body });
      handler(body as SentCall, req, res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});

afterEach(() => {
  seen.length = 0;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const client = (timeoutMs = 2_000, userinfo = 'u:p%20w') => createRpcClient({ url: `http://${userinfo}@127.0.0.1:${port}/`, timeoutMs });

describe('rpc client over HTTP', () => {
  test('sends a JSON-RPC 1.0 request with Basic auth and returns exact amounts', async () => {
    handler = (body, _req, res) =>
      json(
        res,
        200,
        `{"result":{"value":0.10000000,"n":3,"echo":${JSON.stringify(body.params)}},"error":null,"id":${JSON.stringify(body.id)}}`,
      );
    const r = await client().call<{ value: string; n: number; echo: unknown }>('gettxout', ['aa', 3, true]);
    expect(r).toEqual({ value: '0.10000000', n: 3, echo: ['aa', 3, true] });
    expect(seen[0].body).toMatchObject({ jsonrpc: '1.0', method: 'gettxout', params: ['aa', 3, true] });
    expect(seen[0].auth).toBe('Basic ' + Buffer.from('u:p w').toString('base64'));
    expect(seen[0].connection).toBe('close'); // no keep-alive by default
  });

  test('JSON-RPC errors (HTTP 500 and 404 with a body) are RpcError with code and message', async () => {
    handler = (body, _req, res) =>
      body.method === 'nosuch'
        ? json(res, 404, '{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":1}')
        : json(res, 500, '{"result":null,"error":{"code":-8,"message":"Block height out of range"},"id":1}');
    const e1 = await client()
      .call('getblockhash', [999])
      .catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(RpcError);
    expect(e1).toMatchObject({ code: -8, message: 'Block height out of range', method: 'getblockhash' });
    await expect(client().call('nosuch')).rejects.toMatchObject({ name: 'RpcError', code: -32601 });
  });

  test('401 and 403 are unavailability (misconfiguration) with a clear message and no password', async () => {
    handler = (_b, _req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="jsonrpc"' });
      res.end();
    };
    const e = await client(2_000, 'u:s3cret')
      .call('getnetworkinfo')
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RpcUnavailableError);
    expect(e).toMatchObject({ kind: 'auth' });
    expect((e as Error).message).toMatch(/401.*user and password/);
    expect((e as Error).message).not.toContain('s3cret');
    expect((e as Error).message).toContain(`127.0.0.1:${port}`);
    handler = (_b, _req, res) => {
      res.writeHead(403);
      res.end();
    };
    await expect(client().call('getnetworkinfo')).rejects.toMatchObject({ kind: 'auth', message: expect.stringMatching(/rpcallowip/) });
  });

  test('HTTP errors without a JSON-RPC body, and non-JSON 200s, are unavailability', async () => {
    handler = (_b, _req, res) => {
      res.writeHead(503);
      res.end('Work queue depth exceeded');
    };
    await expect(client().call('getblock')).rejects.toMatchObject({ name: 'RpcUnavailableError', kind: 'http' });
    handler = (_b, _req, res) => {
      res.writeHead(200);
      res.end('<html>proxy</html>');
    };
    await expect(client().call('getblock')).rejects.toMatchObject({ name: 'RpcUnavailableError', kind: 'protocol' });
    handler = (_b, _req, res) => json(res, 200, '"just a string"');
    await expect(client().call('getblock')).rejects.toMatchObject({ name: 'RpcUnavailableError', kind: 'protocol' });
  });

  test('-28 (node warming up) is unavailability', async () => {
    handler = (_b, _req, res) => json(res, 500, '{"result":null,"error":{"code":-28,"message":"Loading block index..."},"id":1}');
    await expect(client().call('getbestblockhash')).rejects.toMatchObject({ name: 'RpcUnavailableError', kind: 'warmup' });
  });

  test('connection refused and a dropped connection are unavailability', async () => {
    const closed = await freePort();
    const c = createRpcClient({ url: `http://u:p@127.0.0.1:${closed}`, timeoutMs: 2_000 });
    const e = await c.call('getnetworkinfo').catch((x: unknown) => x);
    expect(e).toMatchObject({ name: 'RpcUnavailableError', kind: 'connect' });
    expect((e as Error).message).toMatch(/ECONNREFUSED/);
    expect((e as Error).message).not.toContain('u:p');

    handler = (_b, req) => req.socket.destroy();
    await expect(client().call('getnetworkinfo')).rejects.toMatchObject({ name: 'RpcUnavailableError', kind: 'connect' });
  });

  test('a node that accepts but never answers times out', async () => {
    const hang = createTcpServer(() => {}); // accepts, never replies
    const held: Socket[] = [];
    hang.on('connection', (s) => held.push(s));
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const hport = (hang.address() as { port: number }).port;
    try {
      const c = createRpcClient({ url: `http://u:p@127.0.0.1:${hport}`, timeoutMs: 300 });
      const t0 = Date.now();
      await expect(c.call('getblock')).rejects.toMatchObject({ name: 'RpcUnavailableError', kind: 'timeout' });
      expect(Date.now() - t0).toBeLessThan(2_000);
      // A per-call timeout overrides the default.
      await expect(c.call('getblock', [], { timeoutMs: 50 })).rejects.toMatchObject({
        kind: 'timeout',
        message: expect.stringMatching(/50 ms/),
      });
    } finally {
      held.forEach((s) => s.destroy());
      await new Promise((r) => hang.close(r));
    }
  });

  test('a slow body is covered by the timeout too', async () => {
    handler = (_b, _req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"result":'); // and never finishes
    };
    await expect(client(300).call('getblock')).rejects.toMatchObject({ name: 'RpcUnavailableError', kind: 'timeout' });
  });

  test('batch: one request, answers matched by id (in any order), per-call errors as items', async () => {
    handler = (body, _req, res) => {
      const replies = (body as unknown as SentCall[]).map((c) =>
        c.method === 'bad'
          ? { result: null, error: { code: -5, message: 'nope' }, id: c.id }
          : { result: { v: '__AMT__', m: c.method }, error: null, id: c.id },
      );
      json(res, 200, JSON.stringify(replies.reverse()).replaceAll('"__AMT__"', '1.50000000'));
    };
    const items = await client().batch([{ method: 'a' }, { method: 'bad', params: [1] }, { method: 'c' }]);
    expect(seen).toHaveLength(1);
    expect(items[0]).toEqual({ ok: true, result: { v: '1.50000000', m: 'a' } });
    expect(items[1].ok).toBe(false);
    expect(!items[1].ok && items[1].error).toMatchObject({ name: 'RpcError', code: -5, method: 'bad' });
    expect(items[2]).toEqual({ ok: true, result: { v: '1.50000000', m: 'c' } });
    expect(await client().batch([])).toEqual([]);
  });

  test('batch: a missing answer is a protocol failure; -28 in any item is unavailability', async () => {
    handler = (_body, _req, res) => json(res, 200, '[{"result":1,"error":null,"id":0}]');
    await expect(client().batch([{ method: 'a' }, { method: 'b' }])).rejects.toMatchObject({ kind: 'protocol' });
    handler = (body, _req, res) =>
      json(
        res,
        200,
        JSON.stringify(
          (body as unknown as SentCall[]).map((c) => ({ result: null, error: { code: -28, message: 'Verifying blocks...' }, id: c.id })),
        ),
      );
    await expect(client().batch([{ method: 'a' }])).rejects.toMatchObject({ kind: 'warmup' });
  });
});
