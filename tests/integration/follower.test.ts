// The generic follower (rpc/devnet backends) on PGlite: a block whose hooks fail is not marked
// processed and is connected again on the next call; a failed disconnect is retried too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { followChain } from '@/lib/chain/follower';
import type { BlockSummary, ChainBackend } from '@/lib/chain/backend';
import { sha256d, toHex } from '@/lib/doge';

function makeChain(n: number, salt: number): BlockSummary[] {
  const out: BlockSummary[] = [];
  let prev: Uint8Array = new Uint8Array(32);
  for (let h = 0; h < n; h++) {
    const header = new Uint8Array(80);
    const dv = new DataView(header.buffer);
    dv.setUint32(0, 1, true);
    header.set(prev, 4);
    dv.setUint32(68, 1_700_000_000 + h, true);
    dv.setUint32(72, 0x207fffff, true);
    dv.setUint32(76, salt * 1000 + h, true);
    const hash = sha256d(header).slice().reverse();
    out.push({
      hash: toHex(hash),
      prevHash: toHex(prev.slice().reverse()),
      height: h,
      time: 1_700_000_000 + h,
      header,
      size: 81,
      txCount: 0,
      totalTxSize: 0,
      txs: [],
    });
    prev = sha256d(header);
  }
  return out;
}

function backend(get: () => BlockSummary[]): ChainBackend {
  return {
    name: 'rpc',
    canLookupInputs: true,
    start: async () => undefined,
    stop: async () => undefined,
    mempoolTxFacts: async () => {
      throw new Error('not used');
    },
    tip: async () => {
      const c = get();
      return { height: c.length - 1, hash: c[c.length - 1].hash };
    },
    blockHashAt: async (h) => get()[h]?.hash ?? null,
    block: async (hash) => get().find((b) => b.hash === hash)!,
    lookupInputs: async () => [],
    broadcast: async () => ({ ok: false, reason: 'n/a' }),
    inMempool: async () => false,
    peers: async () => 1,
  };
}

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => db?.close());

describe('followChain', () => {
  it('replays a block whose connected hook failed, and retries a failed disconnect', async () => {
    let chain = makeChain(5, 1);
    const chainBackend = backend(() => chain);
    const seen: number[] = [];
    let failAt = 3;
    const hooks = {
      connected: async (b: BlockSummary) => {
        if (b.height === failAt) {
          failAt = -1;
          throw new Error('hook failed');
        }
        seen.push(b.height);
      },
      disconnected: async (_hash: string, height: number) => {
        if (height === 4 && !dropped) {
          dropped = true;
          throw new Error('disconnect hook failed');
        }
        seen.push(-height);
      },
    };
    let dropped = false;
    await expect(followChain(db, chainBackend, hooks, { initialDepth: 10 })).rejects.toThrow('hook failed');
    expect(seen).toEqual([0, 1, 2]);
    const r = await followChain(db, chainBackend, hooks);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(r.tip).toEqual({ height: 4, hash: chain[4].hash });

    // Reorg: a different branch from height 3 on. The first disconnect hook fails.
    chain = [...chain.slice(0, 3), ...makeChain(6, 2).slice(3)].map((b, i, all) => (i >= 3 ? relink(b, all[i - 1]) : b));
    await expect(followChain(db, chainBackend, hooks)).rejects.toThrow('disconnect hook failed');
    const r2 = await followChain(db, chainBackend, hooks);
    expect(seen.slice(5)).toEqual([-4, -3, 3, 4, 5]);
    expect(r2.tip.hash).toBe(chain[5].hash);
    const best = await db.prisma.chainHeader.findMany({ where: { inBest: true }, orderBy: { height: 'asc' }, select: { hash: true } });
    expect(best.map((b) => b.hash)).toEqual(chain.map((b) => b.hash));
  });
});

/** Rebuilds a header on top of a new parent (the synthetic branch must link). */
function relink(b: BlockSummary, parent: BlockSummary): BlockSummary {
  const header = b.header.slice();
  const parentHash = sha256d(parent.header);
  header.set(parentHash, 4);
  return { ...b, header, prevHash: parent.hash, hash: toHex(sha256d(header).slice().reverse()) };
}
