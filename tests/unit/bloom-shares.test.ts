// BIP37 caps a filter at 36,000 bytes and 50 hash functions, so one filter over 1,000 stores'
// wallets matches about one random tx in 16. The spv node splits its watch set into shares, each
// its own filter on its own connections (lib/chain/spv/watch.ts buildFilters,
// docs/node.md#many-stores-and-the-filter). Pure: random elements, random probes.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { buildFilter, buildFilters, FILTER_SHARE_ELEMENTS, shareOf, outpointBytes, type WatchSet } from '@/lib/chain/spv/watch';
import { toHex, hexToHash, fromHex } from '@/lib/doge';
import type { BloomFilter } from '@/lib/p2p/bloom';

const MAX_FILTER_BYTES = 36_000;
const MAX_HASH_FUNCS = 50;
/** Each store's account key: 20 addresses past the last used on the receiving and the change branch. */
const ADDRESSES_PER_STORE = 40;

/** `count` random hex strings of `bytes` bytes, from one draw. */
function randomHex(count: number, bytes: number): string[] {
  const pool = randomBytes(count * bytes);
  return Array.from({ length: count }, (_, i) => toHex(pool.subarray(i * bytes, (i + 1) * bytes)));
}

function watchSet(addresses: number, outpoints = 0, txids = 0): WatchSet {
  return {
    hash160s: randomHex(addresses, 20),
    outpoints: randomHex(outpoints, 32).map((txid, i) => ({ txid, vout: i % 3 })),
    txids: randomHex(txids, 32),
  };
}

/** The share of random 20-byte probes that some filter matches: what the peers send us for nothing. */
function falsePositiveRate(filters: BloomFilter[], probes: number): number {
  const pool = randomBytes(probes * 20);
  let hits = 0;
  for (let i = 0; i < probes; i++) {
    const probe = pool.subarray(i * 20, (i + 1) * 20);
    if (filters.some((f) => f.contains(probe))) hits++;
  }
  return hits / probes;
}

describe('bloom filter shares (docs/node.md#many-stores-and-the-filter)', () => {
  it('one store: one share, the same filter as buildFilter', () => {
    const w = watchSet(ADDRESSES_PER_STORE, 3, 2);
    const [one, ...rest] = buildFilters(w);
    const single = buildFilter(w);
    expect(rest).toHaveLength(0);
    expect(one!.data.length).toBe(single.data.length);
    expect(one!.hashFuncs).toBe(single.hashFuncs);
  });

  it('1,000 stores: shares within BIP37 limits, every element in its own share, false positives under 0.2 % (one filter: over 3 %)', () => {
    const w = watchSet(1_000 * ADDRESSES_PER_STORE, 1_000, 200);
    const elements = w.hash160s.length + w.outpoints.length + w.txids.length;
    const shares = buildFilters(w);
    expect(shares).toHaveLength(Math.ceil(elements / FILTER_SHARE_ELEMENTS));
    expect(shares.length).toBeGreaterThan(1);
    for (const f of shares) {
      expect(f.data.length).toBeLessThanOrEqual(MAX_FILTER_BYTES);
      expect(f.hashFuncs).toBeLessThanOrEqual(MAX_HASH_FUNCS);
    }
    // No false negatives: the share an element belongs to matches it.
    const inShare = (e: Uint8Array) => shares[shareOf(e, shares.length)]!.contains(e);
    expect(w.hash160s.every((h) => inShare(fromHex(h)))).toBe(true);
    expect(w.outpoints.every((o) => inShare(outpointBytes(o.txid, o.vout)))).toBe(true);
    expect(w.txids.every((t) => inShare(hexToHash(t)))).toBe(true);
    expect(falsePositiveRate(shares, 50_000)).toBeLessThan(0.002);
    expect(falsePositiveRate([buildFilter(w)], 50_000)).toBeGreaterThan(0.03);
  });

  it('deals elements evenly: no share holds more than a tenth over its fair part', () => {
    const count = 4;
    const elements = randomBytes(40_000 * 20);
    const sizes = new Array<number>(count).fill(0);
    for (let i = 0; i < 40_000; i++) sizes[shareOf(elements.subarray(i * 20), count)]!++;
    for (const n of sizes) expect(n).toBeLessThan((40_000 / count) * 1.1);
  });
});
