// What one chain-worker tick costs the database when nothing concerns the shop (docs/api.md#payments-from-any-wallet:
// the rpc backend diffs getrawmempool every ≤ 2 s). On PGlite the worker shares the web
// process's database, so every statement it sends and every row it reads is paid by
// /relay/status (bench `status-rpc`). Counted, not timed: against a real litecoind -regtest and
// a shop history of confirmed payments, a tick with an unchanged mempool and a tick with many
// unrelated new mempool txs send a bounded number of statements, read payment rows in
// proportion to the open payments (not the history), and fetch each new tx once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { createRpcBackend } from '@/lib/chain/rpc/backend';
import { createRpcClient, type RpcClient } from '@/lib/chain/rpc/client';
import { workerTick, type WorkerContext } from '@/lib/worker';
import { startLitecoind, EXTERNAL_ADDRESS, type Litecoind } from '../helpers/litecoind';

const URL_BASE = 'http://127.0.0.1:1';
const XPUB = testXpub(21);
const HISTORY = 2_000; // confirmed long ago
const OPEN = 5;
const NEW_TXS = 25;

let node: Litecoind;
let db: Db;
let ctx: WorkerContext;
/** Statements sent to the database (raw queries, ORM operations, ORM transactions) while counting. */
let statements: string[] = [];
/** JSON-RPC methods called (a batch counts each of its items) while counting. */
let rpcCalls: string[] = [];
let counting = false;

function countingDb(inner: Db): Db {
  const prisma = inner.prisma.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (counting) statements.push(`${model}.${operation}`);
          return query(args);
        },
      },
    },
  }) as unknown as Db['prisma'];
  const tx = prisma.$transaction.bind(prisma) as (...x: unknown[]) => unknown;
  const wrapped = new Proxy(prisma, {
    get: (t, k) =>
      k === '$transaction'
        ? (...a: unknown[]) => {
            if (counting) statements.push('$transaction');
            return tx(...a);
          }
        : Reflect.get(t, k),
  });
  return {
    ...inner,
    prisma: wrapped,
    query: (async (sql: string, params?: unknown[]) => {
      if (counting) statements.push(sql.replace(/\s+/g, ' ').trim());
      return inner.query(sql, params);
    }) as Db['query'],
  };
}

function countingClient(inner: RpcClient): RpcClient {
  return {
    endpoint: inner.endpoint,
    call: (method, params, opts) => {
      if (counting) rpcCalls.push(method);
      return inner.call(method, params, opts);
    },
    batch: (calls, opts) => {
      if (counting) rpcCalls.push(...calls.map((c) => c.method));
      return inner.batch(calls, opts);
    },
  };
}

/** Rows of `payment` the database read (sequential and through indexes) so far. */
async function paymentRowsRead(): Promise<number> {
  await db.query(`SELECT pg_stat_force_next_flush()`);
  const [r] = await db.query<{ n: string | number }>(
    `SELECT COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0) AS n FROM pg_stat_user_tables WHERE relname = 'payment'`,
  );
  return Number(r!.n);
}

/** One tick, counted: its statements, RPC calls and payment rows read. */
async function countedTick() {
  const before = await paymentRowsRead();
  statements = [];
  rpcCalls = [];
  counting = true;
  try {
    await workerTick(ctx);
  } finally {
    counting = false;
  }
  return { statements: [...statements], rpc: [...rpcCalls], rowsRead: (await paymentRowsRead()) - before };
}

async function mempoolSize(): Promise<number> {
  return (await node.rpc<string[]>('getrawmempool')).length;
}

beforeAll(async () => {
  node = await startLitecoind();
  const raw = await openTestDb();
  await raw.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: XPUB }, create: { id: 1, storeXpub: XPUB } });
  await activeRelayKey(raw, 1);
  const r = await createPayment(
    { storeId: 1, db: raw, network: REGTEST, publicUrl: URL_BASE, apiKeyId: null, userId: null, idempotencyKey: null },
    JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Tea', count: 1, unit: '2' }] }),
  );
  const template = (r.body as { id: string }).id;
  for (let i = 1; i < OPEN; i++) {
    await createPayment(
      { storeId: 1, db: raw, network: REGTEST, publicUrl: URL_BASE, apiKeyId: null, userId: null, idempotencyKey: null },
      JSON.stringify({ items: [{ type: 'item', id: 'sku', name: 'Tea', count: 1, unit: '2' }] }),
    );
  }
  // The shop's history: confirmed long ago, in block 1, counted to the tracked maximum.
  const cols = (
    await raw.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'payment' AND table_schema = current_schema() ORDER BY ordinal_position`,
    )
  ).map((c) => c.column_name);
  const over: Record<string, string | null> = {
    id: `t.id || '-' || g`,
    seq: null,
    status: `'confirmed'`,
    txid: `md5(t.id || g) || md5(g::text || t.id)`,
    broadcast_state: `'sent'`,
    block_height: '1',
    block_hash: `'h'`,
    confirmations: '100',
    confirmed_at: 't.created_at',
    accepted_at: 't.created_at',
  };
  const ins = cols.filter((c) => over[c] !== null);
  await raw.query(
    `INSERT INTO payment (${ins.map((c) => `"${c}"`).join(', ')})
    SELECT ${ins.map((c) => (c in over ? over[c] : `t."${c}"`)).join(', ')} FROM payment t, generate_series(1, ${HISTORY}) g WHERE t.id = $1`,
    [template],
  );
  db = countingDb(raw);
  const chain = createRpcBackend({ url: node.rpcUrl, client: countingClient(createRpcClient({ url: node.rpcUrl })) });
  ctx = { db, network: REGTEST, chain, publicUrl: URL_BASE };
  // Follow the node's chain, and take the mempool in, until a tick has nothing left to do.
  const tip = await node.rpc<number>('getblockcount');
  for (let i = 0; i < 50; i++) {
    await workerTick(ctx);
    const st = await raw.prisma.chainState.findUnique({ where: { key: 'tip_height' } });
    if (st && Number(st.value) >= tip) break;
  }
  await workerTick(ctx);
}, 180_000);

afterAll(async () => {
  await db?.close();
  await node?.dispose();
});

describe('a chain-worker tick on the rpc backend, with nothing for the shop', () => {
  it('with an unchanged mempool and tip: a few statements, no payment lookup for txs, no history read, no tx fetched', async () => {
    const t = await countedTick();
    // Nothing from the mempool: only getrawmempool asks the node about it.
    expect(t.rpc.filter((m) => m === 'getrawtransaction')).toEqual([]);
    expect(t.rpc.filter((m) => m === 'getrawmempool').length).toBeLessThanOrEqual(2);
    // The statements of a tick are the worker's fixed bookkeeping; a second quiet tick sends the same.
    expect(t.statements.length).toBeLessThanOrEqual(16);
    expect((await countedTick()).statements).toEqual(t.statements);
    // The history (2,000 confirmed payments) is not read on a tick whose tip did not move.
    expect(t.rowsRead).toBeLessThan(HISTORY / 10);
  });

  it(`${NEW_TXS} unrelated mempool txs: each fetched once, one payment lookup for all, nothing per tx`, async () => {
    const quiet = await countedTick();
    for (let i = 0; i < NEW_TXS; i++) await node.rpc('sendtoaddress', EXTERNAL_ADDRESS, 0.01);
    expect(await mempoolSize()).toBeGreaterThanOrEqual(NEW_TXS);
    const busy = await countedTick();
    expect(busy.rpc.filter((m) => m === 'getrawtransaction').length).toBe(NEW_TXS);
    // Two statements more than a quiet tick: the addresses of all the new txs looked up at once,
    // and the wallet check's one probe for a pending case (docs/wallet-check.md), whatever the count.
    expect(busy.statements.length).toBe(quiet.statements.length + 2);
    expect(busy.statements.filter((s) => /FROM unnest\(\$1::text\[\]\) AS a\(address\)\s+CROSS JOIN LATERAL/.test(s))).toHaveLength(1);
    expect(busy.statements.filter((s) => /FROM wallet_check_case/.test(s))).toHaveLength(1);
    expect(busy.rowsRead).toBeLessThan(HISTORY / 10);
    // The same mempool again: nothing is fetched or looked up twice.
    const again = await countedTick();
    expect(again.rpc.filter((m) => m === 'getrawtransaction')).toEqual([]);
    expect(again.statements).toEqual(quiet.statements);
  });

  it('a new block reads the payments whose count still moves (accepted, or confirmed below the tracked depth), not the history', async () => {
    await node.mine(1);
    const block = await countedTick();
    expect(block.rowsRead).toBeLessThan(HISTORY / 10);
    const after = await countedTick();
    expect(after.rowsRead).toBeLessThan(HISTORY / 10);
  });
});
