// Block-level header rules (checkHeader: versions, heights, chain ID, proof of work) and the P2P
// `headers` message codec. The fixture's headers one by one are doge-headers-fixture.test.ts; the
// AuxPoW proof rules are doge-headers-auxpow.test.ts.
import { describe, expect, it } from 'vitest';
import {
  MAINNET,
  TESTNET,
  ByteWriter,
  chainIdOf,
  checkHeader,
  encodeHeadersMessage,
  fromHex,
  isAuxpowVersion,
  isLegacyVersion,
  makeHeader,
  parseHeaderEntry,
  parseHeaderWithAuxpow,
  parseHeadersMessage,
  serializeHeaderEntry,
  toHex,
} from '../../lib/doge';
import { entries, full, plain, checkCode, decodeCode } from '../helpers/doge-header-fixtures';

describe('block-level rules (checkHeader)', () => {
  const genesis = parseHeaderEntry(entries.find((e) => e.height === 0)!.hex);
  const legacy250k = parseHeaderEntry(entries.find((e) => e.height === 250000)!.hex);
  const pre = parseHeaderEntry(entries.find((e) => e.height === 371336)!.hex);
  const aux = parseHeaderEntry(full[0]!.hex);

  it('versions', () => {
    expect(isLegacyVersion(1)).toBe(true);
    expect(isLegacyVersion(2)).toBe(true);
    expect(isLegacyVersion(0x00620002)).toBe(false);
    expect(chainIdOf(0x00620102)).toBe(0x62);
    expect(isAuxpowVersion(0x00620102)).toBe(true);
    expect(isAuxpowVersion(0x00620002)).toBe(false);
  });

  it('late-legacy and early-auxpow by height', () => {
    checkHeader(legacy250k, MAINNET, { height: 250000 });
    expect(checkCode(() => checkHeader(legacy250k, MAINNET, { height: 371337 }))).toBe('late-legacy');
    expect(checkCode(() => checkHeader(aux, MAINNET, { height: 371336 }))).toBe('early-auxpow');
    // 371336's version carries the chain ID without AuxPoW: fine before the start height.
    checkHeader(pre, MAINNET, { height: 371336 });
    checkHeader(genesis, MAINNET, { height: 0 });
  });

  it('strict chain ID', () => {
    const wrong = makeHeader({ ...pre.header, version: 0x00630002 });
    expect(checkCode(() => checkHeader({ header: wrong }, MAINNET))).toBe('chain-id');
    // Testnet does not enforce it: the changed header then fails on proof of work.
    expect(checkCode(() => checkHeader({ header: wrong }, TESTNET))).toBe('pow');
  });

  it('auxpow-unexpected and auxpow-missing', () => {
    expect(checkCode(() => checkHeader({ header: pre.header, auxpow: aux.auxpow }, MAINNET))).toBe('auxpow-unexpected');
    expect(checkCode(() => checkHeader({ header: aux.header }, MAINNET))).toBe('auxpow-missing');
  });

  it('pow and bad-bits', () => {
    const harder = makeHeader({ ...genesis.header, bits: 0x1d0ffff0 });
    expect(checkCode(() => checkHeader({ header: harder }, MAINNET))).toBe('pow');
    const aboveLimit = makeHeader({ ...genesis.header, bits: 0x1f0ffff0 });
    expect(checkCode(() => checkHeader({ header: aboveLimit }, MAINNET))).toBe('bad-bits');
  });
});

describe('headers message', () => {
  const run = entries.filter((e) => e.height >= 0 && e.height <= 10);
  const auxRun = entries.filter((e) => e.height >= 400000 && e.height <= 400002);

  it('round-trips consecutive plain headers and links them', () => {
    expect(run).toHaveLength(11);
    const payload = encodeHeadersMessage(run.map((e) => fromHex(e.hex)));
    expect(payload[0]).toBe(11);
    const parsed = parseHeadersMessage(payload);
    expect(parsed.map((p) => p.header.hash)).toEqual(run.map((e) => e.hash));
    for (let i = 1; i < parsed.length; i++) expect(parsed[i]!.header.prevHash).toBe(parsed[i - 1]!.header.hash);
    for (const p of parsed) checkHeader(p, MAINNET);
  });

  it('round-trips consecutive AuxPoW headers with their proofs', () => {
    expect(auxRun).toHaveLength(3);
    const payload = encodeHeadersMessage(auxRun.map((e) => serializeHeaderEntry(parseHeaderEntry(e.hex))));
    const parsed = parseHeadersMessage(payload);
    expect(parsed).toHaveLength(3);
    parsed.forEach((p, i) => {
      expect(p.header.hash).toBe(auxRun[i]!.hash);
      expect(p.auxpow).toBeDefined();
      expect(toHex(serializeHeaderEntry(p))).toBe(auxRun[i]!.hex);
      checkHeader(p, MAINNET, { height: auxRun[i]!.height });
      if (i > 0) expect(p.header.prevHash).toBe(parsed[i - 1]!.header.hash);
    });
  });

  it('mixes plain and AuxPoW entries', () => {
    const mixed = [...plain.slice(0, 3), ...full].map((e) => fromHex(e.hex));
    const parsed = parseHeadersMessage(encodeHeadersMessage(mixed));
    expect(parsed.map((p) => p.auxpow !== undefined)).toEqual([false, false, false, ...full.map(() => true)]);
  });

  it('rejects truncation at every offset, trailing bytes, tx counts and oversize counts', () => {
    const payload = encodeHeadersMessage(auxRun.map((e) => fromHex(e.hex)));
    for (let k = 0; k < payload.length; k++) {
      expect(['truncated', 'count']).toContain(decodeCode(() => parseHeadersMessage(payload.subarray(0, k))));
    }
    expect(decodeCode(() => parseHeadersMessage(Uint8Array.of(...payload, 0)))).toBe('trailing');
    const withTx = Uint8Array.from(payload);
    withTx[1 + fromHex(auxRun[0]!.hex).length] = 1;
    expect(decodeCode(() => parseHeadersMessage(withTx))).toBe('tx-count');
    expect(decodeCode(() => parseHeadersMessage(new ByteWriter().varint(2001).finish()))).toBe('too-many');
    expect(decodeCode(() => parseHeadersMessage(new ByteWriter().varint(2000).finish()))).toBe('count');
    expect(decodeCode(() => parseHeadersMessage(Uint8Array.of(0xfd, 0x01, 0x00)))).toBe('varint');
    expect(parseHeadersMessage(Uint8Array.of(0))).toEqual([]);
    expect(() => encodeHeadersMessage(Array(2001).fill(fromHex(run[0]!.hex)))).toThrow(RangeError);
  });

  it('a 2000-header message is accepted', () => {
    const one = fromHex(run[1]!.hex);
    const parsed = parseHeadersMessage(encodeHeadersMessage(Array(2000).fill(one)));
    expect(parsed).toHaveLength(2000);
    expect(parsed[1999]!.header.hash).toBe(run[1]!.hash);
  });

  it('parseHeaderWithAuxpow reads at an offset', () => {
    const a = fromHex(plain[0]!.hex);
    const b = fromHex(full[0]!.hex);
    const buf = Uint8Array.of(...a, ...b, 0xee);
    const first = parseHeaderWithAuxpow(buf, 0);
    expect(first.bytesRead).toBe(80);
    expect(first.auxpow).toBeUndefined();
    const second = parseHeaderWithAuxpow(buf, 80);
    expect(second.bytesRead).toBe(b.length);
    expect(second.header.hash).toBe(full[0]!.hash);
    expect(decodeCode(() => parseHeaderEntry(buf.subarray(80)))).toBe('trailing');
  });
});
