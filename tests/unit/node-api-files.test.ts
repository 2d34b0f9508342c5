// The libdogecoin file encoders, byte for byte on hand-built inputs (docs/protocol.md#libdogecoins-files).
import { describe, expect, it } from 'vitest';
import { chainworkBytes, encodeWalletFile, headerRecords, headersFileHeader, HEADER_RECORD_SIZE } from '@/lib/node-api/files';
import { toHex } from '@/lib/doge';
import { readHeadersFile, readWalletFile } from '../helpers/libdogecoin-files';

const GENESIS = '1a91e3dace36e2be3bf030a65679fe821aa1d6ef92e7c9902eb318182c355691';

describe('headers file', () => {
  it('starts with magic A8F011C5 and version 3 LE', () => {
    expect(toHex(headersFileHeader())).toBe('a8f011c503000000');
  });

  it('writes 148-byte records: internal-order hash, u32 height, LE chainwork, header', () => {
    const header = new Uint8Array(80).map((_, i) => i);
    const rec = headerRecords([{ hash: '00'.repeat(31) + 'ff', height: 0x010203, chainwork: 0x1234n, header }]);
    expect(rec.length).toBe(HEADER_RECORD_SIZE);
    expect(toHex(rec.subarray(0, 32))).toBe('ff' + '00'.repeat(31));
    expect(toHex(rec.subarray(32, 36))).toBe('03020100');
    expect(toHex(rec.subarray(36, 68))).toBe('3412' + '00'.repeat(30));
    expect(rec.subarray(68)).toEqual(header);
    expect(() => headerRecords([{ hash: '00'.repeat(32), height: 1, chainwork: 1n, header: new Uint8Array(81) }])).toThrow(/80/);
    expect(() => chainworkBytes(-1n)).toThrow();
    expect(toHex(chainworkBytes((1n << 256n) - 1n))).toBe('ff'.repeat(32));
  });

  it('reads back with the independent reader', () => {
    const f = readHeadersFile(
      new Uint8Array([
        ...headersFileHeader(),
        ...headerRecords([{ hash: 'ab'.repeat(32), height: 7, chainwork: 9n, header: new Uint8Array(80) }]),
      ]),
    );
    expect(f).toMatchObject({ magic: 'a8f011c5', version: 3 });
    expect(f.records.map((r) => [r.hash, r.height, r.chainwork])).toEqual([['ab'.repeat(32), 7, 9n]]);
  });
});

describe('wallet file', () => {
  it('is magic, version 1, genesis, then magic/varint-length/type/payload records', () => {
    const bytes = encodeWalletFile({
      genesisHash: GENESIS,
      xpub: 'tpubX',
      addresses: [{ hash160: '11'.repeat(20), type: 0, childIndex: 5, ignore: false }],
      txs: [{ txid: '22'.repeat(31) + '33', height: 258, raw: Uint8Array.of(1, 2, 3) }],
    });
    const genesisInternal = GENESIS.match(/../g)!.reverse().join('');
    expect(toHex(bytes)).toBe(
      'a8f011c5' +
        '01000000' +
        genesisInternal +
        'c8f2691e' +
        '0c' +
        '00' +
        '05' +
        toHex(new TextEncoder().encode('tpubX')) +
        '05' +
        toHex(new TextEncoder().encode('tpubX')) +
        'c8f2691e' +
        '1a' +
        '01' +
        '11'.repeat(20) +
        '00' +
        '05000000' +
        '00' +
        'c8f2691e' +
        '27' +
        '02' +
        '02010000' +
        '33' +
        '22'.repeat(31) +
        '010203',
    );
    const f = readWalletFile(bytes);
    expect(f.genesis).toBe(GENESIS);
    expect(f.masterPubkeys).toEqual([['tpubX', 'tpubX']]);
    expect(f.txs[0]).toMatchObject({ height: 258, txid: '22'.repeat(31) + '33' });
  });

  it('omits the key record for a single-address wallet', () => {
    const f = readWalletFile(encodeWalletFile({ genesisHash: GENESIS, xpub: null, addresses: [], txs: [] }));
    expect(f).toMatchObject({ version: 1, masterPubkeys: [], addresses: [], txs: [] });
  });
});
