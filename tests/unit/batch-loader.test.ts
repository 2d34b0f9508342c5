// lib/db/batch-loader.ts: concurrent lookups share one fetch, each caller gets its own
// answer, a failed fetch rejects every caller of its batch and no other, and nothing is cached.
import { describe, expect, it } from 'vitest';
import { BatchLoader } from '@/lib/db/batch-loader';

/** A fake table: fetch records each batch of keys it is asked for. */
function table(rows: Record<string, string>) {
  const calls: string[][] = [];
  const fetch = async (keys: string[]) => {
    calls.push([...keys]);
    const m = new Map<string, string>();
    for (const k of keys) if (k in rows) m.set(k, rows[k]);
    return m;
  };
  return { calls, fetch, rows };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('BatchLoader', () => {
  it('answers the lookups of one turn with one fetch of the distinct keys', async () => {
    const t = table({ a: 'A', b: 'B', c: 'C' });
    const l = new BatchLoader(t.fetch);
    const got = await Promise.all(['a', 'b', 'nope', 'a', 'c', 'b'].map((k) => l.load(k)));
    expect(got).toEqual(['A', 'B', undefined, 'A', 'C', 'B']);
    expect(t.calls).toEqual([['a', 'b', 'nope', 'c']]);
  });

  it('asks again for lookups made after a batch was sent (no caching)', async () => {
    const t = table({ a: 'A1' });
    const l = new BatchLoader(t.fetch);
    expect(await l.load('a')).toBe('A1');
    t.rows.a = 'A2';
    expect(await l.load('a')).toBe('A2');
    delete t.rows.a;
    expect(await l.load('a')).toBeUndefined();
    expect(t.calls).toEqual([['a'], ['a'], ['a']]);
  });

  it('keeps batches apart: lookups during a pending fetch go into the next one, each with its own answers', async () => {
    const gates: Array<() => void> = [];
    const calls: string[][] = [];
    const l = new BatchLoader(async (keys) => {
      calls.push(keys);
      const n = calls.length;
      await new Promise<void>((r) => gates.push(r));
      return new Map(keys.map((k) => [k, `${k}@${n}`]));
    });
    const first = [l.load('x'), l.load('y')];
    await turn();
    const second = [l.load('y'), l.load('z')];
    await turn();
    expect(calls).toEqual([
      ['x', 'y'],
      ['y', 'z'],
    ]);
    gates[1](); // the second batch answers first
    expect(await Promise.all(second)).toEqual(['y@2', 'z@2']);
    gates[0]();
    expect(await Promise.all(first)).toEqual(['x@1', 'y@1']);
  });

  it('rejects every caller of a failed batch, and only those', async () => {
    let fail = true;
    const l = new BatchLoader(async (keys) => {
      if (fail) throw new Error('db down');
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    });
    const failed = ['a', 'b', 'a'].map((k) =>
      l.load(k).then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(await Promise.all(failed)).toEqual(['db down', 'db down', 'db down']);
    fail = false;
    expect(await Promise.all([l.load('a'), l.load('b')])).toEqual(['A', 'B']);
  });

  it('rejects every caller when fetch throws synchronously or answers something unusable', async () => {
    const sync = new BatchLoader<string>(() => {
      throw new Error('boom');
    });
    await expect(Promise.all([sync.load('a'), sync.load('b')])).rejects.toThrow('boom');
    const broken = new BatchLoader<string>(async () => null as unknown as Map<string, string>);
    const r = await Promise.allSettled([broken.load('a'), broken.load('b')]);
    expect(r.map((x) => x.status)).toEqual(['rejected', 'rejected']);
  });

  it('splits a large turn into queries of at most maxBatch keys, failing only the chunk that failed', async () => {
    const calls: string[][] = [];
    const l = new BatchLoader<string>(
      async (keys) => {
        calls.push(keys);
        if (keys.includes('k3')) throw new Error('chunk 2 failed');
        return new Map(keys.map((k) => [k, k]));
      },
      { maxBatch: 2 },
    );
    const r = await Promise.allSettled(['k0', 'k1', 'k2', 'k3', 'k4'].map((k) => l.load(k)));
    expect(calls).toEqual([['k0', 'k1'], ['k2', 'k3'], ['k4']]);
    expect(r.map((x) => (x.status === 'fulfilled' ? x.value : 'err'))).toEqual(['k0', 'k1', 'err', 'err', 'k4']);
  });
});
