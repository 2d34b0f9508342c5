// JSON-RPC client: exact amounts, URL/credential handling, error mapping (against a tiny local
// HTTP server), and the rpc backend's mapping of Dogecoin Core 1.14 answers (scripted client).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BackendUnavailableError } from '../../lib/chain/backend';
import { createRpcBackend } from '../../lib/chain/rpc/backend';
import {
  RpcError,
  RpcUnavailableError,
  createRpcClient,
  koinuFromRpc,
  koinuToRpc,
  parseRpcJson,
  parseRpcUrl,
  rewriteJsonNumbers,
  type RpcBatchItem,
  type RpcCall,
  type RpcClient,
} from '../../lib/chain/rpc/client';
import { freePort } from '../helpers/ports';

describe('rewriteJsonNumbers / parseRpcJson', () => {
  test('fractional numbers become their exact text; integers stay numbers', () => {
    const text = '{"value":0.50000000,"n":1,"fee":-0.00022500,"height":202,"x":[1.10000000,2,3.00000000]}';
    expect(parseRpcJson(text)).toEqual({ value: '0.50000000', n: 1, fee: '-0.00022500', height: 202, x: ['1.10000000', 2, '3.00000000'] });
  });

  test('exponents and unsafe integers become strings; safe integers do not', () => {
    expect(
      parseRpcJson(
        '{"difficulty":4.656542373906925e-10,"big":12345678901234567890,"neg":-9007199254740993,"ok":9007199254740991,"e":1E+5}',
      ),
    ).toEqual({
      difficulty: '4.656542373906925e-10',
      big: '12345678901234567890',
      neg: '-9007199254740993',
      ok: 9007199254740991,
      e: '1E+5',
    });
  });

  test('numbers inside strings are untouched, escapes included', () => {
    const text = '{"a":"0.5","b":"say \\"1.5\\" \\\\","c":1.5,"d":"\\\\","e":2.25}';
    expect(parseRpcJson(text)).toEqual({ a: '0.5', b: 'say "1.5" \\', c: '1.5', d: '\\', e: '2.25' });
  });

  test('JSON without fractions is returned unchanged; literals and whitespace survive', () => {
    const text = '{ "result" : [true, false, null, 0, -1, {"k": 10}] , "error": null, "id": 1 }';
    expect(rewriteJsonNumbers(text)).toBe(text);
    expect(rewriteJsonNumbers('[ 0.1 , -2.5e3 ]')).toBe('[ "0.1" , "-2.5e3" ]');
    expect(rewriteJsonNumbers('0.30000000')).toBe('"0.30000000"');
  });

  test('values a float would get wrong are exact', () => {
    // 0.1 + 0.2 style: these decimals have no exact binary form.
    const r = parseRpcJson('[0.29000000, 21000000.00000001, 92233720368.54775807, 0.00000001]') as string[];
    expect(koinuFromRpc(r[0])).toBe(29_000_000n);
    expect(0.29 * 1e8).not.toBe(29_000_000); // what a float would do: 28999999.999999996
    expect(koinuFromRpc(r[1])).toBe(2_100_000_000_000_001n);
    expect(() => koinuFromRpc(r[2])).toThrow(); // above Dogecoin's MAX_MONEY (10^10 DOGE)
    expect(koinuFromRpc(r[3])).toBe(1n);
  });
});

describe('koinuFromRpc / koinuToRpc', () => {
  test('parses Core amounts exactly', () => {
    expect(koinuFromRpc('0.50000000')).toBe(50_000_000n);
    expect(koinuFromRpc('-0.00022500')).toBe(-22_500n);
    expect(koinuFromRpc('1.23456789')).toBe(123_456_789n);
    expect(koinuFromRpc('0.00000000')).toBe(0n);
    expect(koinuFromRpc(25)).toBe(2_500_000_000n); // a whole-coin integer
    expect(koinuFromRpc(0)).toBe(0n);
  });

  test('rejects floats, exponents, junk and more than 8 decimals', () => {
    expect(() => koinuFromRpc(0.5)).toThrow(TypeError);
    expect(() => koinuFromRpc('1e-8')).toThrow();
    expect(() => koinuFromRpc('0.000000001')).toThrow();
    expect(() => koinuFromRpc('abc')).toThrow();
    expect(() => koinuFromRpc(null)).toThrow(TypeError);
    expect(() => koinuFromRpc(1n)).toThrow(TypeError);
  });

  test('formats bigint koinu as 8-decimal strings', () => {
    expect(koinuToRpc(123_456_789n)).toBe('1.23456789');
    expect(koinuToRpc(1n)).toBe('0.00000001');
    expect(koinuToRpc(10_000_000_000_000_000n)).toBe('100000000.00000000');
  });
});

describe('parseRpcUrl', () => {
  test('moves credentials into a Basic header; the endpoint has none', () => {
    const p = parseRpcUrl('http://user:p%40ss%3Aw0rd@127.0.0.1:22555/wallet/main');
    expect(p.endpoint).toBe('http://127.0.0.1:22555/wallet/main');
    expect(p.href).toBe(p.endpoint);
    expect(p.authorization).toBe('Basic ' + Buffer.from('user:p@ss:w0rd').toString('base64'));
    expect(parseRpcUrl('http://127.0.0.1:22555').authorization).toBeNull();
  });

  test('bad URLs are rejected without echoing them', () => {
    expect(() => parseRpcUrl('not a url with s3cret')).toThrow(/not a valid URL/);
    expect(() => parseRpcUrl('not a url with s3cret')).not.toThrow(/s3cret/);
    expect(() => parseRpcUrl('ftp://u:p@host:1')).toThrow(/http/);
  });
});

// ---- a tiny scripted JSON-RPC server ----

/** One JSON-RPC call as the client sends it (a batch is an array of them: the tests cast). */
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

// ---- the rpc backend's mapping, with a scripted client (answers of Dogecoin Core 1.14) ----

type Script = (method: string, params: unknown[]) => unknown; // return a result or throw

function scripted(script: Script): RpcClient & { calls: RpcCall[] } {
  const calls: RpcCall[] = [];
  const run = async (method: string, params: unknown[]) => {
    calls.push({ method, params });
    return script(method, params);
  };
  return {
    endpoint: 'http://scripted/',
    calls,
    call: <T>(method: string, params: unknown[] = []) => run(method, params) as Promise<T>,
    batch: async (cs: RpcCall[]) =>
      Promise.all(
        cs.map(async (c): Promise<RpcBatchItem> => {
          try {
            return { ok: true, result: await run(c.method, c.params ?? []) };
          } catch (e) {
            if (e instanceof RpcError) return { ok: false, error: e };
            throw e;
          }
        }),
      ),
  };
}

// A legacy tx spending 11..11:0, one output.
const TX_HEX =
  '0100000001' +
  '11'.repeat(32) +
  '00000000' +
  '00' +
  'ffffffff' +
  '01' +
  '00e1f50500000000' +
  '1976a914' +
  '22'.repeat(20) +
  '88ac' +
  '00000000';

describe('rpc backend error mapping (Dogecoin Core 1.14 dialect)', () => {
  const err = (code: number, message: string, method = 'x') => new RpcError(code, message, method);

  test('sendrawtransaction falls back to allowhighfees=true when maxfeerate is refused (-3)', async () => {
    const c = scripted((m, p) => {
      if (m !== 'sendrawtransaction') throw new Error('unexpected ' + m);
      if (typeof p[1] === 'number') throw err(-3, 'Expected type bool, got number');
      return 'ab'.repeat(32);
    });
    const b = createRpcBackend({ url: 'http://x', client: c });
    expect(await b.broadcast(TX_HEX)).toEqual({ ok: true, txid: 'ab'.repeat(32) });
    expect(c.calls.map((x) => x.params?.[1])).toEqual([0, true]);
  });

  test('"258: txn-mempool-conflict" is a double spend, reason without the numeric prefix', async () => {
    const b = createRpcBackend({
      url: 'http://x',
      client: scripted(() => {
        throw err(-26, '258: txn-mempool-conflict');
      }),
    });
    expect(await b.broadcast(TX_HEX)).toEqual({ ok: false, code: 'double_spend', reason: 'txn-mempool-conflict' });
  });

  test('"Missing inputs" is classified by looking the inputs up', async () => {
    const spentSomewhere = (spent: boolean) =>
      scripted((m) => {
        if (m === 'sendrawtransaction') throw err(-25, 'Missing inputs');
        if (m === 'gettxout') return null;
        if (m === 'getrawtransaction' && spent) return { vout: [{}, {}] };
        throw err(-5, 'No such mempool transaction');
      });
    const missing = createRpcBackend({ url: 'http://x', client: spentSomewhere(false) });
    expect(await missing.broadcast(TX_HEX)).toEqual({ ok: false, code: 'missing_inputs', reason: 'Missing inputs' });
    const spent = createRpcBackend({ url: 'http://x', client: spentSomewhere(true) });
    expect(await spent.broadcast(TX_HEX)).toMatchObject({ ok: false, code: 'double_spend', reason: expect.stringContaining('1111') });
  });

  test('other rejections keep Core\'s reason; "already in block chain" is success', async () => {
    const reject = (e: RpcError) =>
      createRpcBackend({
        url: 'http://x',
        client: scripted(() => {
          throw e;
        }),
      });
    expect(await reject(err(-26, '66: min relay fee not met')).broadcast(TX_HEX)).toEqual({
      ok: false,
      code: 'rejected',
      reason: 'min relay fee not met',
    });
    expect(await reject(err(-22, 'TX decode failed')).broadcast(TX_HEX)).toEqual({
      ok: false,
      code: 'rejected',
      reason: 'TX decode failed',
    });
    const chained = await reject(err(-27, 'transaction already in block chain')).broadcast(TX_HEX);
    expect(chained.ok).toBe(true);
    expect(chained.ok && chained.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await reject(err(-26, 'bad')).broadcast('not hex')).toEqual({ ok: false, code: 'rejected', reason: 'transaction is not hex' });
  });

  test('unavailability becomes BackendUnavailableError; -8 out of range is null; -5 not in mempool is false', async () => {
    const down = createRpcBackend({
      url: 'http://x',
      client: scripted(() => {
        throw new RpcUnavailableError('connect', 'down');
      }),
    });
    await expect(down.tip()).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(down.broadcast(TX_HEX)).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(down.lookupInputs([{ txid: '11'.repeat(32), vout: 0 }])).rejects.toBeInstanceOf(BackendUnavailableError);
    const b = createRpcBackend({
      url: 'http://x',
      client: scripted((m) => {
        if (m === 'getblockhash') throw err(-8, 'Block height out of range');
        if (m === 'getmempoolentry') throw err(-5, 'Transaction not in mempool');
        throw new Error('unexpected');
      }),
    });
    expect(await b.blockHashAt(5)).toBeNull();
    expect(await b.inMempool('11'.repeat(32))).toBe(false);
    await expect(b.blockHashAt(-1)).rejects.toThrow(RangeError);
  });

  test('block(): takes the first 80 bytes of a header with AuxPoW appended, and checks its hash', async () => {
    const header = '01'.repeat(80);
    const { sha256d, hashToHex, fromHex } = await import('../../lib/doge/bytes');
    const h = hashToHex(sha256d(fromHex(header)));
    const blockJson = {
      hash: h,
      height: 7,
      time: 1_700_000_000,
      size: 500,
      previousblockhash: '33'.repeat(32),
      tx: [
        {
          txid: '44'.repeat(32),
          size: 120,
          vin: [{ coinbase: '0101', sequence: 4294967295 }],
          vout: [{ value: '88.00000001', n: 0, scriptPubKey: { hex: '51' } }],
        },
      ],
    };
    const b = createRpcBackend({
      url: 'http://x',
      client: scripted((m) => (m === 'getblock' ? blockJson : header + 'ff'.repeat(100))),
    });
    const s = await b.block(h);
    expect(s.header).toHaveLength(80);
    expect(s).toMatchObject({ hash: h, height: 7, prevHash: '33'.repeat(32), txCount: 1, totalTxSize: 120, size: 500 });
    expect(s.txs[0]).toEqual({
      txid: '44'.repeat(32),
      inputs: [],
      outputs: [{ n: 0, value: 8_800_000_001n, script: '51' }],
      signalsRbf: false,
    });

    const wrong = createRpcBackend({ url: 'http://x', client: scripted((m) => (m === 'getblock' ? blockJson : '02'.repeat(80))) });
    await expect(wrong.block(h)).rejects.toThrow(/does not hash/);
  });
});
