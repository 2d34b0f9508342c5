// The rpc backend's fast mempool poll (docs/live.md#a-node-that-does-not-whitelist-counter) against Dogecoin Core
// 1.14.9 that does not whitelist Counter, with no P2P announcement connection at all, so the
// poll is the only way a tx can be pushed: a plain wallet's tx is handed over through the
// backend's queue (onMempoolTx wakes, takePushedTxs has it) with no further mempoolNewTxs call,
// and the tick's diff does not hand it over again; a quiet mempool is checked with
// getmempoolinfo and never listed; a stopped backend polls no more. Behaviour only: the waits
// are generous bounds, nothing is timed. Skipped, saying why, when dogecoind is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRpcBackend } from '@/lib/chain/rpc/backend';
import { createRpcClient, type RpcClient } from '@/lib/chain/rpc/client';
import type { BlockTxSummary, ChainBackend } from '@/lib/chain/backend';
import { EXTERNAL_ADDRESS, haveDogecoind, startDogecoind, warnIfNoDogecoind, type Dogecoind } from '../helpers/dogecoind';
import { until } from '../helpers/wait';
import { REGTEST, toHex } from '@/lib/doge';
import { addressToScript } from '@/lib/doge/address';

warnIfNoDogecoind('tests/integration/rpc-mempool-poll-dogecoind.test.ts');

let node: Dogecoind;
let chain: ChainBackend;
/** JSON-RPC methods the backend called (a batch counts each of its items). */
const calls: string[] = [];
const count = (method: string) => calls.filter((m) => m === method).length;

function countingClient(inner: RpcClient): RpcClient {
  return {
    endpoint: inner.endpoint,
    call: (method, params, opts) => {
      calls.push(method);
      return inner.call(method, params, opts);
    },
    batch: (batch, opts) => {
      calls.push(...batch.map((c) => c.method));
      return inner.batch(batch, opts);
    },
  };
}

beforeAll(async () => {
  if (!haveDogecoind) return;
  node = await startDogecoind(); // no -whitelist: P2P announcements would come seconds late
  chain = createRpcBackend({
    url: node.rpcUrl,
    network: 'regtest',
    mempoolPollMs: 100,
    client: countingClient(createRpcClient({ url: node.rpcUrl })),
  });
  await chain.start();
  // The worker's first tick lists the mempool; the poll hands over what comes after it.
  await chain.mempoolNewTxs!();
}, 120_000);

afterAll(async () => {
  await chain?.stop();
  await node?.dispose();
});

describe.skipIf(!haveDogecoind)("the rpc backend's mempool poll on a non-whitelisting dogecoind", () => {
  it("hands a plain-wallet tx over through the poll, without a tick, and the tick's diff does not repeat it", async () => {
    let woken = 0;
    const unsubscribe = chain.onMempoolTx!(() => woken++);
    const taken: BlockTxSummary[] = [];
    const txid = await node.rpc<string>('sendtoaddress', EXTERNAL_ADDRESS, 3);
    const got = await until(
      () => {
        taken.push(...chain.takePushedTxs!());
        return taken.find((t) => t.txid === txid);
      },
      (t) => t !== undefined,
      20_000,
      50,
    );
    unsubscribe();
    const script = toHex(addressToScript(EXTERNAL_ADDRESS, REGTEST));
    expect(got?.outputs.some((o) => o.script === script && o.value === 300_000_000n)).toBe(true);
    expect(woken).toBeGreaterThan(0);
    expect((await chain.mempoolNewTxs!()).map((t) => t.txid)).not.toContain(txid);
  });

  it('checks a quiet mempool with getmempoolinfo and never lists it', async () => {
    calls.length = 0;
    await until(
      () => count('getmempoolinfo'),
      (n) => n >= 3,
      20_000,
      50,
    );
    expect(count('getmempoolinfo')).toBeGreaterThanOrEqual(3);
    expect(count('getrawmempool')).toBe(0);
    expect(count('getrawtransaction')).toBe(0);
  });

  it('a stopped backend polls no more', async () => {
    await chain.stop();
    await new Promise((r) => setTimeout(r, 300)); // a round in flight at stop ends
    calls.length = 0;
    await new Promise((r) => setTimeout(r, 600));
    expect(calls).toEqual([]);
  });
});
