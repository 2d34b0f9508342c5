// lib/db/turn-batcher.ts: the writes of one turn share one run, each caller gets its own
// result, items sharing a key never share a batch and keep their order, a failed run rejects
// its batch and no other, and a batch is capped.
import { describe, expect, it } from 'vitest';
import { ItemFailure, TurnBatcher } from '@/lib/db/turn-batcher';

const turn = () => new Promise((r) => setImmediate(r));

/** A run that records each batch and answers each item with `${item}@${batch number}`. */
function recorder() {
  const calls: string[][] = [];
  const run = async (items: string[]) => {
    calls.push([...items]);
    const n = calls.length;
    return items.map((i) => `${i}@${n}`);
  };
  return { calls, run };
}

describe('TurnBatcher', () => {
  it('sends the submissions of one turn as one batch, each answered with its own result', async () => {
    const r = recorder();
    const b = new TurnBatcher(r.run);
    expect(await Promise.all(['a', 'b', 'c'].map((x) => b.submit(x)))).toEqual(['a@1', 'b@1', 'c@1']);
    expect(await b.submit('d')).toBe('d@2');
    expect(r.calls).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('never shares a batch between items with a common key, and keeps their order', async () => {
    const r = recorder();
    const key = (x: string) => [x.slice(0, 1)]; // 'p1', 'p2' share key 'p'
    const b = new TurnBatcher(r.run, { keys: key });
    const got = await Promise.all(['p1', 'q1', 'p2', 'r1', 'p3', 'q2'].map((x) => b.submit(x)));
    expect(r.calls).toEqual([['p1', 'q1', 'r1'], ['p2', 'q2'], ['p3']]);
    expect(got).toEqual(['p1@1', 'q1@1', 'p2@2', 'r1@1', 'p3@3', 'q2@2']);
  });

  it('holds an item whose key is in a batch still running until that batch answers', async () => {
    const calls: string[][] = [];
    const gates: Array<() => void> = [];
    const b = new TurnBatcher<string, string>(
      async (items) => {
        calls.push(items);
        await new Promise<void>((res) => gates.push(res));
        return items.map((i) => i.toUpperCase());
      },
      { keys: (x) => [x] },
    );
    const first = b.submit('x');
    await turn();
    const again = b.submit('x');
    const other = b.submit('y');
    await turn();
    await turn();
    expect(calls).toEqual([['x'], ['y']]); // 'y' went, the second 'x' waits for the first
    gates[0]();
    expect(await first).toBe('X');
    await turn();
    await turn();
    expect(calls).toEqual([['x'], ['y'], ['x']]);
    gates[1]();
    gates[2]();
    expect(await Promise.all([other, again])).toEqual(['Y', 'X']);
  });

  it('rejects every item of a failed batch, and only those; later batches still run', async () => {
    let fail = true;
    const b = new TurnBatcher<string, string>(async (items) => {
      if (fail) throw new Error('db down');
      return items;
    });
    const doomed = [b.submit('a'), b.submit('b')].map((p) =>
      p.then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    expect(await Promise.all(doomed)).toEqual(['db down', 'db down']);
    fail = false;
    expect(await b.submit('c')).toBe('c');
  });

  it('fails only the items answered with an ItemFailure', async () => {
    const b = new TurnBatcher<string, string>(async (items) =>
      items.map((i) => (i === 'bad' ? new ItemFailure(new Error('bad alone')) : i.toUpperCase())),
    );
    const got = await Promise.all(['a', 'bad', 'c'].map((x) => b.submit(x).catch((e: Error) => e.message)));
    expect(got).toEqual(['A', 'bad alone', 'C']);
  });

  it('rejects a batch whose run answers the wrong number of results', async () => {
    const b = new TurnBatcher<string, string>(async (items) => items.slice(1));
    await expect(Promise.all([b.submit('a'), b.submit('b')])).rejects.toThrow(/1 results for 2 items/);
  });

  it('rejects an item whose keys cannot be computed without holding up the others', async () => {
    const r = recorder();
    const b = new TurnBatcher(r.run, {
      keys: (x: string) => {
        if (x === 'bad') throw new Error('no keys');
        return [x];
      },
    });
    const got = await Promise.all(['a', 'bad', 'c'].map((x) => b.submit(x).catch((e: Error) => e.message)));
    expect(got).toEqual(['a@1', 'no keys', 'c@1']);
  });

  it('caps a batch at maxBatch and sends the rest at once in further batches', async () => {
    const r = recorder();
    const b = new TurnBatcher(r.run, { maxBatch: 2 });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((x) => b.submit(x)));
    expect(r.calls).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });
});
