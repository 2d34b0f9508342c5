import { describe, expect, it } from 'vitest';
import { MempoolQueue } from '@/lib/chain/mempool-queue';

const tx = (n: number) => ({ txid: n.toString(16).padStart(64, '0'), inputs: [], outputs: [], signalsRbf: false });

describe('MempoolQueue', () => {
  it('hands each tx once, in arrival order, and is empty after a drain', () => {
    const q = new MempoolQueue();
    q.push(tx(1));
    q.push(tx(2));
    q.push(tx(1));
    expect(q.drain().map((t) => t.txid)).toEqual([tx(1).txid, tx(2).txid]);
    expect(q.drain()).toEqual([]);
    q.push(tx(2));
    expect(q.drain()).toEqual([]);
  });

  it('is bounded: past max the oldest are dropped', () => {
    const q = new MempoolQueue(3);
    for (let i = 0; i < 5; i++) q.push(tx(i));
    expect(q.drain().map((t) => t.txid)).toEqual([tx(2).txid, tx(3).txid, tx(4).txid]);
  });
});
