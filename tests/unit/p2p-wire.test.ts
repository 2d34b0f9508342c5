// P2P framing and payload codecs, and the BIP37 filter against Bitcoin Core's bloom_tests vectors.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { fromHex, toHex } from '@/lib/doge';
import {
  FrameDecoder,
  WireError,
  encodeMessage,
  encodeVersion,
  decodeVersion,
  encodeInv,
  decodeInv,
  encodeGetHeaders,
  decodeGetHeaders,
  decodeReject,
  encodeReject,
  decodeAddr,
  encodeFilterLoad,
  HEADER_LEN,
  INV_TX,
  INV_FILTERED_BLOCK,
} from '@/lib/p2p/wire';
import { BloomFilter, murmur3, BLOOM_UPDATE_ALL } from '@/lib/p2p/bloom';

const MAGIC = 'fabfb5da';

describe('framing', () => {
  it('encodes verack exactly as Core does (empty payload checksum 5df6e0e2)', () => {
    expect(toHex(encodeMessage(MAGIC, 'verack'))).toBe('fabfb5da76657261636b000000000000000000005df6e0e2');
  });

  it('decodes frames split at every byte boundary and back to back', () => {
    const a = encodeMessage(MAGIC, 'ping', fromHex('0102030405060708'));
    const b = encodeMessage(MAGIC, 'inv', encodeInv([{ type: INV_TX, hash: 'ab'.repeat(32) }]));
    const stream = new Uint8Array([...a, ...b]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const d = new FrameDecoder(MAGIC);
      const frames = [...d.push(stream.subarray(0, cut)), ...d.push(stream.subarray(cut))];
      expect(frames.map((f) => f.command)).toEqual(['ping', 'inv']);
      expect(decodeInv(frames[1]!.payload)).toEqual([{ type: INV_TX, hash: 'ab'.repeat(32) }]);
    }
  });

  it('rejects a wrong magic, a bad checksum, an oversized length and a malformed command', () => {
    const good = encodeMessage(MAGIC, 'ping', fromHex('0102030405060708'));
    expect(() => new FrameDecoder('c0c0c0c0').push(good)).toThrow(WireError);
    const badSum = good.slice();
    badSum[HEADER_LEN - 1] ^= 1;
    expect(() => new FrameDecoder(MAGIC).push(badSum)).toThrow(/checksum/);
    const big = good.slice(0, HEADER_LEN);
    new DataView(big.buffer).setUint32(16, 5_000_000, true);
    expect(() => new FrameDecoder(MAGIC).push(big)).toThrow(/exceeds/);
    const cmd = good.slice();
    cmd[6] = 0; // "pi\0g": bytes after the terminator
    expect(() => new FrameDecoder(MAGIC).push(cmd)).toThrow(/command/);
  });

  it('never throws anything but WireError on random input', () => {
    for (let i = 0; i < 200; i++) {
      const d = new FrameDecoder(MAGIC);
      const junk = randomBytes(4 + (i % 97) * 3);
      if (i % 2) junk.set(fromHex(MAGIC), 0);
      try {
        d.push(junk);
      } catch (e) {
        expect(e).toBeInstanceOf(WireError);
      }
    }
  });
});

describe('payloads', () => {
  it('round-trips version, getheaders, inv and reject', () => {
    const v = {
      version: 70015,
      services: 5n,
      timestamp: 1700000000n,
      nonce: 0x0123456789abcdefn,
      userAgent: '/counter/',
      startHeight: 42,
      relay: false,
    };
    expect(decodeVersion(encodeVersion(v))).toEqual(v);
    const loc = ['11'.repeat(32), '22'.repeat(32)];
    expect(decodeGetHeaders(encodeGetHeaders(loc))).toEqual({ locator: loc, stop: '0'.repeat(64) });
    const inv = [{ type: INV_FILTERED_BLOCK, hash: '33'.repeat(32) }];
    expect(decodeInv(encodeInv(inv))).toEqual(inv);
    const rej = { message: 'tx', code: 0x10, reason: 'mandatory-script-verify-flag-failed', hash: '44'.repeat(32) };
    expect(decodeReject(encodeReject(rej))).toEqual(rej);
  });

  it('refuses an inv count larger than its payload and decodes IPv4 addr entries', () => {
    expect(() => decodeInv(fromHex('fd1027'))).toThrow();
    const addr = fromHex('01' + '00e1f505' + '0100000000000000' + '00000000000000000000ffff7f000001' + '47e6');
    expect(decodeAddr(addr)).toEqual([{ time: 0x05f5e100, services: 1n, host: '127.0.0.1', port: 18406 }]);
  });
});

describe('BIP37 bloom filter', () => {
  it('murmur3 matches the reference values', () => {
    expect(murmur3(0, new Uint8Array(0))).toBe(0);
    expect(murmur3(0xfba4c795, new Uint8Array(0))).toBe(0x6a396f08);
    expect(murmur3(0, fromHex('00'))).toBe(0x514e28b7);
    expect(murmur3(0, fromHex('21436587'))).toBe(0xf55b516b);
    expect(murmur3(0x5082edee, fromHex('21436587'))).toBe(0x2362f9de);
  });

  it('serialises like Core (bloom_tests: create_insert_serialize, with and without tweak)', () => {
    const items = [
      '99108ad8ed9bb6274d3980bab5a85c048f0950c8',
      'b5a2c786d9ef4658287ced5914b37a1b4aa32eee',
      'b9300670b4c5366e95b2699e8b18bc75e5f729c5',
    ];
    const f = new BloomFilter(3, 0.01, 0, BLOOM_UPDATE_ALL);
    for (const i of items) f.insert(fromHex(i));
    expect(toHex(encodeFilterLoad(f))).toBe('03614e9b050000000000000001');
    expect(f.contains(fromHex('99108ad8ed9bb6274d3980bab5a85c048f0950c8'))).toBe(true);
    expect(f.contains(fromHex('19108ad8ed9bb6274d3980bab5a85c048f0950c8'))).toBe(false);
    const t = new BloomFilter(3, 0.01, 2147483649, BLOOM_UPDATE_ALL);
    for (const i of items) t.insert(fromHex(i));
    expect(toHex(encodeFilterLoad(t))).toBe('03ce4299050000000100008001');
  });
});
