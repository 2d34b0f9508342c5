import { fixturePath } from '../helpers/fixtures';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ByteWriter,
  MAINNET,
  TESTNET,
  TxDecodeError,
  concatBytes,
  decodeTx,
  encodeTx,
  fromHex,
  hashToHex,
  isCoinbase,
  parseTx,
  parseTxAt,
  signalsRbf,
  toHex,
  txHash,
  txidOf,
  type RawTx,
} from '../../lib/doge';

const fixture = (name: string) => JSON.parse(readFileSync(fixturePath(name), 'utf8'));

interface FxTx {
  txid: string;
  kind: string;
  hex: string;
  size: number;
  version: number;
  locktime: number;
  inputs: { prev_txid: string; vout: number; scriptSig: string; sequence: number }[];
  outputs: { n: number; value_koinu: number; scriptPubKey: string; type: string; address: string | null; data?: string; pubkey?: string }[];
}

const txs: FxTx[] = fixture('doge-mainnet-txs.json').transactions;

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TxDecodeError);
    return (e as TxDecodeError).code;
  }
  throw new Error('expected a TxDecodeError');
}

/** BIP144 serialisation of a legacy tx, with one dummy witness item per input. */
function witnessSerialise(tx: RawTx): Uint8Array {
  const legacy = encodeTx(tx);
  const w = new ByteWriter()
    .bytes(legacy.subarray(0, 4))
    .u8(0)
    .u8(1)
    .bytes(legacy.subarray(4, legacy.length - 4));
  for (let i = 0; i < tx.inputs.length; i++) w.varint(1).varBytes(new Uint8Array(71).fill(0x30));
  return w.bytes(legacy.subarray(legacy.length - 4)).finish();
}

describe('doge-mainnet-txs.json', () => {
  it('covers the documented kinds', () => {
    expect(txs.length).toBeGreaterThanOrEqual(8);
    const kinds = new Set(txs.map((t) => t.kind));
    for (const k of ['p2pkh_payment', 'multi_input', 'p2sh_output', 'coinbase']) expect(kinds).toContain(k);
  });

  for (const fx of txs) {
    it(`${fx.kind} ${fx.txid}`, () => {
      const d = decodeTx(fx.hex, MAINNET);
      expect(d.txid).toBe(fx.txid);
      expect(d.size).toBe(fx.size);
      expect(d.size).toBe(fx.hex.length / 2);
      expect(d.version).toBe(fx.version);
      expect(d.locktime).toBe(fx.locktime);
      expect(d.inputs).toHaveLength(fx.inputs.length);
      fx.inputs.forEach((i, k) => {
        expect(d.inputs[k]).toEqual({ prevTxid: i.prev_txid, vout: i.vout, scriptSig: i.scriptSig, sequence: i.sequence });
      });
      expect(d.outputs).toHaveLength(fx.outputs.length);
      fx.outputs.forEach((o, k) => {
        const out = d.outputs[k]!;
        expect(out.n).toBe(o.n);
        expect(out.value).toBe(BigInt(o.value_koinu));
        expect(out.script).toBe(o.scriptPubKey);
        expect(out.type).toBe(o.type);
        expect(out.address).toBe(o.address);
        expect(out.data).toBe(o.type === 'nulldata' ? o.data : null);
      });
      expect(d.isCoinbase).toBe(fx.kind === 'coinbase' || fx.inputs[0]!.vout === 0xffffffff);
      expect(d.signalsRbf).toBe(fx.inputs.some((i) => i.sequence < 0xfffffffe));

      // Bytes and bytes-level API agree; encoding round-trips.
      const raw = fromHex(fx.hex);
      const tx = parseTx(raw);
      expect(toHex(encodeTx(tx))).toBe(fx.hex);
      expect(hashToHex(txHash(tx))).toBe(fx.txid);
      expect(txidOf(raw)).toBe(fx.txid);
      expect(decodeTx(raw, MAINNET)).toEqual(d);
    });
  }

  it('addresses follow the network passed in', () => {
    const fx = txs.find((t) => t.outputs.some((o) => o.type === 'p2sh'))!;
    const main = decodeTx(fx.hex, MAINNET);
    const test = decodeTx(fx.hex, TESTNET);
    const i = fx.outputs.findIndex((o) => o.type === 'p2pkh');
    const j = fx.outputs.findIndex((o) => o.type === 'p2sh');
    expect(main.outputs[i]!.address![0]).toBe('D');
    expect(test.outputs[i]!.address![0]).toBe('n');
    expect(test.outputs[j]!.address![0]).toBe('2');
  });

  it('coinbase detection', () => {
    for (const fx of txs) {
      const tx = parseTx(fx.hex);
      const expected = fx.inputs.length === 1 && fx.inputs[0]!.prev_txid === '0'.repeat(64) && fx.inputs[0]!.vout === 0xffffffff;
      expect(isCoinbase(tx)).toBe(expected);
    }
    expect(txs.filter((fx) => isCoinbase(parseTx(fx.hex))).length).toBeGreaterThanOrEqual(2);
  });
});

describe('rejections', () => {
  const fx = txs.find((t) => t.inputs.length >= 2)!;
  const raw = fromHex(fx.hex);

  it('witness serialisation is rejected with code "witness"', () => {
    for (const t of txs) {
      const w = witnessSerialise(parseTx(t.hex));
      expect(codeOf(() => parseTx(w))).toBe('witness');
      expect(codeOf(() => decodeTx(toHex(w), MAINNET))).toBe('witness');
    }
  });

  it('witness data is accepted only when asked for (AuxPoW parent coinbase) and dropped', () => {
    const w = witnessSerialise(parseTx(fx.hex));
    const { tx, bytesRead } = parseTxAt(w, 0, { allowWitness: true });
    expect(bytesRead).toBe(w.length);
    expect(hashToHex(txHash(tx))).toBe(fx.txid);
    expect(toHex(encodeTx(tx))).toBe(fx.hex);
  });

  it('a zero-input tx (0x00 without the witness flag) is rejected', () => {
    const noIn = concatBytes(raw.subarray(0, 4), Uint8Array.of(0x00, 0x00), raw.subarray(raw.length - 4));
    expect(codeOf(() => parseTx(noIn))).toBe('no-inputs');
  });

  it('truncation at every byte offset throws TxDecodeError', () => {
    for (const t of txs) {
      const bytes = fromHex(t.hex);
      for (let k = 0; k < bytes.length; k++) {
        const code = codeOf(() => parseTx(bytes.subarray(0, k)));
        expect(['truncated', 'count']).toContain(code);
      }
    }
  });

  it('trailing bytes are rejected', () => {
    expect(codeOf(() => parseTx(concatBytes(raw, Uint8Array.of(0))))).toBe('trailing');
    // …but parseTxAt reads one tx inside a larger buffer.
    const buf = concatBytes(Uint8Array.of(9, 9, 9), raw, Uint8Array.of(7));
    const { tx, bytesRead } = parseTxAt(buf, 3);
    expect(bytesRead).toBe(raw.length);
    expect(hashToHex(txHash(tx))).toBe(fx.txid);
  });

  it('absurd and non-canonical varints are rejected before allocating', () => {
    const v = raw.subarray(0, 4);
    // 2^64-1 inputs
    expect(codeOf(() => parseTx(concatBytes(v, fromHex('ffffffffffffffffff'), new Uint8Array(50))))).toBe('varint');
    // 0x02000000 inputs (MAX_SIZE) in a few bytes
    expect(codeOf(() => parseTx(concatBytes(v, fromHex('fe00000002'), new Uint8Array(100))))).toBe('count');
    // above MAX_SIZE
    expect(codeOf(() => parseTx(concatBytes(v, fromHex('fe01000002'), new Uint8Array(100))))).toBe('varint');
    // 1000 inputs cannot fit in 100 bytes
    expect(codeOf(() => parseTx(concatBytes(v, fromHex('fde803'), new Uint8Array(100))))).toBe('count');
    // non-canonical encodings of 1
    expect(codeOf(() => parseTx(concatBytes(v, fromHex('fd0100'), raw.subarray(5))))).toBe('varint');
    expect(codeOf(() => parseTx(concatBytes(v, fromHex('fe01000000'), raw.subarray(5))))).toBe('varint');
    expect(codeOf(() => parseTx(concatBytes(v, fromHex('ff0100000000000000'), raw.subarray(5))))).toBe('varint');
    // a huge scriptSig length
    const firstScriptLen = 4 + 1 + 36;
    const big = concatBytes(raw.subarray(0, firstScriptLen), fromHex('fe00000001'), raw.subarray(firstScriptLen + 1));
    expect(codeOf(() => parseTx(big))).toBe('truncated');
  });

  it('bad hex', () => {
    expect(codeOf(() => decodeTx('zz', MAINNET))).toBe('hex');
    expect(codeOf(() => decodeTx('abc', MAINNET))).toBe('hex');
  });
});

describe('BIP125 replace-by-fee signalling', () => {
  const base = parseTx(txs[0]!.hex);
  const withSeq = (...seqs: number[]): RawTx => ({
    ...base,
    inputs: seqs.map((sequence) => ({ ...base.inputs[0]!, sequence })),
  });

  it('threshold is 0xfffffffe', () => {
    expect(signalsRbf(withSeq(0xffffffff))).toBe(false);
    expect(signalsRbf(withSeq(0xfffffffe))).toBe(false);
    expect(signalsRbf(withSeq(0xfffffffd))).toBe(true);
    expect(signalsRbf(withSeq(0))).toBe(true);
    expect(signalsRbf(withSeq(0xffffffff, 0xfffffffd))).toBe(true);
    expect(signalsRbf(withSeq(0xffffffff, 0xfffffffe))).toBe(false);
  });

  it('survives an encode/decode round trip', () => {
    const rbf = encodeTx(withSeq(0xffffffff, 1));
    const d = decodeTx(rbf, MAINNET);
    expect(d.signalsRbf).toBe(true);
    expect(d.inputs.map((i) => i.sequence)).toEqual([0xffffffff, 1]);
    expect(decodeTx(encodeTx(withSeq(0xfffffffe)), MAINNET).signalsRbf).toBe(false);
  });

  it('fixture sequences: 0xfffffffe does not signal, 0 does', () => {
    const locktimeTx = txs.find((t) => t.inputs.some((i) => i.sequence === 0xfffffffe))!;
    expect(decodeTx(locktimeTx.hex, MAINNET).signalsRbf).toBe(false);
    const zeroSeq = txs.find((t) => t.inputs.some((i) => i.sequence === 0))!;
    expect(decodeTx(zeroSeq.hex, MAINNET).signalsRbf).toBe(true);
  });
});

describe('encodeTx', () => {
  it('negative and large values round-trip as signed 64-bit', () => {
    const base = parseTx(txs[0]!.hex);
    for (const value of [0n, 1n, 10n ** 18n, -1n, (1n << 63n) - 1n]) {
      const tx: RawTx = { ...base, outputs: [{ value, script: base.outputs[0]!.script }] };
      expect(parseTx(encodeTx(tx)).outputs[0]!.value).toBe(value);
    }
  });

  it('refuses a tx without inputs', () => {
    const base = parseTx(txs[0]!.hex);
    expect(() => encodeTx({ ...base, inputs: [] })).toThrow(RangeError);
  });
});
