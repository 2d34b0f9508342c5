// BIP37 bloom filter (CBloomFilter): murmur3 with the BIP37 seeds, sized for n elements at a
// false-positive rate. The spv node loads one over the watch-only wallet with filterload.
const MAX_FILTER_BYTES = 36_000;
const MAX_HASH_FUNCS = 50;
const LN2SQ = Math.LN2 * Math.LN2;

export const BLOOM_UPDATE_NONE = 0;
export const BLOOM_UPDATE_ALL = 1;
export const BLOOM_UPDATE_P2PUBKEY_ONLY = 2;

/** MurmurHash3 x86_32. */
export function murmur3(seed: number, data: Uint8Array): number {
  let h1 = seed >>> 0;
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const nblocks = data.length >>> 2;
  for (let i = 0; i < nblocks; i++) {
    let k1 = data[4 * i]! | (data[4 * i + 1]! << 8) | (data[4 * i + 2]! << 16) | (data[4 * i + 3]! << 24);
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
  }
  const tail = nblocks * 4;
  let k1 = 0;
  switch (data.length & 3) {
    case 3:
      k1 ^= data[tail + 2]! << 16;
    // falls through
    case 2:
      k1 ^= data[tail + 1]! << 8;
    // falls through
    case 1:
      k1 ^= data[tail]!;
      k1 = Math.imul(k1, c1);
      k1 = (k1 << 15) | (k1 >>> 17);
      k1 = Math.imul(k1, c2);
      h1 ^= k1;
  }
  h1 ^= data.length;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 >>> 0;
}

export class BloomFilter {
  readonly data: Uint8Array;
  readonly hashFuncs: number;
  constructor(
    elements: number,
    fpRate: number,
    readonly tweak: number,
    readonly flags: number,
  ) {
    const n = Math.max(1, elements);
    // Core's integer arithmetic: bits capped, then bytes; (bytes * 8 / n) is an integer division.
    const bits = Math.min(Math.floor((-1 / LN2SQ) * n * Math.log(fpRate)), MAX_FILTER_BYTES * 8);
    const bytes = Math.max(1, Math.floor(bits / 8));
    this.data = new Uint8Array(bytes);
    this.hashFuncs = Math.max(1, Math.min(Math.floor(Math.floor((bytes * 8) / n) * Math.LN2), MAX_HASH_FUNCS));
  }
  private index(i: number, item: Uint8Array): number {
    return murmur3((Math.imul(i, 0xfba4c795) + this.tweak) >>> 0, item) % (this.data.length * 8);
  }
  insert(item: Uint8Array): void {
    for (let i = 0; i < this.hashFuncs; i++) {
      const b = this.index(i, item);
      this.data[b >>> 3]! |= 1 << (b & 7);
    }
  }
  contains(item: Uint8Array): boolean {
    for (let i = 0; i < this.hashFuncs; i++) {
      const b = this.index(i, item);
      if (!(this.data[b >>> 3]! & (1 << (b & 7)))) return false;
    }
    return true;
  }
}
