// The rpc backend's mapping of Dogecoin Core 1.14 answers and errors, with a scripted client
// in place of the node.
import { describe, expect, test } from 'vitest';
import { BackendUnavailableError } from '../../lib/chain/backend';
import { createRpcBackend } from '../../lib/chain/rpc/backend';
import { RpcError, RpcUnavailableError, type RpcBatchItem, type RpcCall, type RpcClient } from '../../lib/chain/rpc/client';

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
