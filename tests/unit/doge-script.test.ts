import { describe, expect, it } from 'vitest';
import {
  MAX_OP_RETURN_PAYLOAD,
  ScriptError,
  classifyScript,
  concatBytes,
  decodeScript,
  fromHex,
  nulldataScript,
  p2pkhScript,
  p2shScript,
  pushData,
  toHex,
  type ScriptInfo,
} from '../../lib/doge';

const H = fromHex('35cb1f77e88e96fb3094d84e8d3b7789a092636d');
const PUB33 = fromHex('02b73438165461b826b30a46078f211aa005d1e7e430b1e0ed461678a5fe516c73');
const PUB65 = fromHex(
  '04ea279824636aa9172473b6c3076727f17dada14847305487405a38a09c91ce6d63478f426ddcf618be66568cb6bd5bd7201c71689705d9602ae0a7c131a3bafb',
);

const cls = (hex: string): ScriptInfo => classifyScript(fromHex(hex));

describe('classifyScript', () => {
  it('p2pkh', () => {
    const s = p2pkhScript(H);
    expect(toHex(s)).toBe('76a91435cb1f77e88e96fb3094d84e8d3b7789a092636d88ac');
    const c = classifyScript(s);
    expect(c.type).toBe('p2pkh');
    expect(c.standard).toBe(true);
    expect(toHex((c as { hash160: Uint8Array }).hash160)).toBe(toHex(H));
    // One byte off anywhere in the template is not p2pkh.
    for (const i of [0, 1, 2, 23, 24]) {
      const bad = Uint8Array.from(s);
      bad[i] ^= 1;
      expect(classifyScript(bad).type).not.toBe('p2pkh');
    }
    expect(classifyScript(s.subarray(0, 24)).type).toBe('nonstandard');
  });

  it('p2sh', () => {
    const s = p2shScript(H);
    expect(toHex(s)).toBe('a91435cb1f77e88e96fb3094d84e8d3b7789a092636d87');
    const c = classifyScript(s);
    expect(c.type).toBe('p2sh');
    expect(toHex((c as { hash160: Uint8Array }).hash160)).toBe(toHex(H));
    const bad = Uint8Array.from(s);
    bad[22] = 0x88;
    expect(classifyScript(bad).type).toBe('nonstandard');
  });

  it('p2pk, compressed and uncompressed', () => {
    const c33 = classifyScript(concatBytes(Uint8Array.of(33), PUB33, Uint8Array.of(0xac)));
    expect(c33.type).toBe('p2pk');
    expect(toHex((c33 as { pubkey: Uint8Array }).pubkey)).toBe(toHex(PUB33));
    expect(classifyScript(concatBytes(Uint8Array.of(65), PUB65, Uint8Array.of(0xac))).type).toBe('p2pk');
    // A 33-byte push that is not a pubkey encoding.
    const notKey = Uint8Array.from(PUB33);
    notKey[0] = 0x05;
    expect(classifyScript(concatBytes(Uint8Array.of(33), notKey, Uint8Array.of(0xac))).type).toBe('nonstandard');
  });

  it('nulldata: payload across push forms', () => {
    const data = fromHex('aa21a9ed801e68db7a74fb3b4d488c0434637c970f57e7f163928f7f70379e8105cbc97e');
    const direct = cls('6a24' + toHex(data));
    expect(direct).toMatchObject({ type: 'nulldata', standard: true });
    expect(toHex((direct as { payload: Uint8Array }).payload)).toBe(toHex(data));

    const pd1 = cls('6a4c24' + toHex(data));
    expect(toHex((pd1 as { payload: Uint8Array }).payload)).toBe(toHex(data));
    const pd2 = cls('6a4d2400' + toHex(data));
    expect(toHex((pd2 as { payload: Uint8Array }).payload)).toBe(toHex(data));
    const pd4 = cls('6a4e24000000' + toHex(data));
    expect(toHex((pd4 as { payload: Uint8Array }).payload)).toBe(toHex(data));

    // Several pushes concatenate; OP_0 pushes nothing, OP_1..16 one byte.
    const multi = cls('6a026869' + '00' + '03616263' + '51' + '60');
    expect(multi.type).toBe('nulldata');
    expect(toHex((multi as { payload: Uint8Array }).payload)).toBe('6869' + '616263' + '01' + '10');

    const bare = cls('6a');
    expect(bare.type).toBe('nulldata');
    expect((bare as { payload: Uint8Array }).payload).toHaveLength(0);
  });

  it('nulldata: non-push opcodes or truncated pushes are nonstandard', () => {
    expect(cls('6a0268').type).toBe('nonstandard'); // push runs past the end
    expect(cls('6a4c').type).toBe('nonstandard'); // PUSHDATA1 without length
    expect(cls('6a026869ac').type).toBe('nonstandard'); // OP_CHECKSIG after the push
    expect(cls('6a4d01').type).toBe('nonstandard');
  });

  it('nulldata standardness follows the 80-byte payload limit', () => {
    const ok = nulldataScript(new Uint8Array(80).fill(1));
    expect(ok.length).toBe(83);
    expect(classifyScript(ok)).toMatchObject({ type: 'nulldata', standard: true });
    const big = concatBytes(Uint8Array.of(0x6a), pushData(new Uint8Array(81)));
    expect(classifyScript(big)).toMatchObject({ type: 'nulldata', standard: false });
    expect(() => nulldataScript(new Uint8Array(MAX_OP_RETURN_PAYLOAD + 1))).toThrow(ScriptError);
  });

  it('multisig', () => {
    const s = concatBytes(Uint8Array.of(0x51, 33), PUB33, Uint8Array.of(65), PUB65, Uint8Array.of(0x52, 0xae));
    const c = classifyScript(s);
    expect(c.type).toBe('multisig');
    expect(c.standard).toBe(true);
    expect((c as { m: number }).m).toBe(1);
    expect((c as { pubkeys: Uint8Array[] }).pubkeys.map(toHex)).toEqual([toHex(PUB33), toHex(PUB65)]);
    // m > n, wrong key count, bad key: not multisig.
    expect(classifyScript(concatBytes(Uint8Array.of(0x53, 33), PUB33, Uint8Array.of(0x51, 0xae))).type).toBe('nonstandard');
    expect(classifyScript(concatBytes(Uint8Array.of(0x51, 33), PUB33, Uint8Array.of(0x52, 0xae))).type).toBe('nonstandard');
    expect(classifyScript(concatBytes(Uint8Array.of(0x51, 0x01, 0x02, 0x51, 0xae))).type).toBe('nonstandard');
    // Four keys: valid template, not standard.
    const four = concatBytes(Uint8Array.of(0x51), ...Array(4).fill(concatBytes(Uint8Array.of(33), PUB33)), Uint8Array.of(0x54, 0xae));
    expect(classifyScript(four)).toMatchObject({ type: 'multisig', standard: false });
  });

  it('witness programs are recognised but never standard on Dogecoin', () => {
    const v0 = cls('0014' + toHex(H));
    expect(v0).toMatchObject({ type: 'witness', version: 0, standard: false });
    expect(toHex((v0 as { program: Uint8Array }).program)).toBe(toHex(H));
    expect(cls('0020' + '11'.repeat(32))).toMatchObject({ type: 'witness', version: 0 });
    expect(cls('5120' + '22'.repeat(32))).toMatchObject({ type: 'witness', version: 1 });
    expect(cls('0001ff').type).toBe('nonstandard'); // program too short
    expect(cls('0015' + '00'.repeat(20)).type).toBe('nonstandard'); // length byte mismatch
  });

  it('nonstandard', () => {
    expect(cls('').type).toBe('nonstandard');
    expect(cls('ac').type).toBe('nonstandard');
    expect(cls('4c').type).toBe('nonstandard');
  });
});

describe('decodeScript / pushData', () => {
  it('decodes every push form and rejects truncation', () => {
    const ops = decodeScript(fromHex('00' + '01ff' + '4c0201' + '02' + '4d0100aa' + '4e01000000bb' + 'ac'));
    expect(ops.map((o) => o.op)).toEqual([0x00, 0x01, 0x4c, 0x4d, 0x4e, 0xac]);
    expect(ops.map((o) => (o.data ? toHex(o.data) : null))).toEqual(['', 'ff', '0102', 'aa', 'bb', null]);
    expect(() => decodeScript(fromHex('4d01'))).toThrow(ScriptError);
    expect(() => decodeScript(fromHex('4e010000'))).toThrow(ScriptError);
    expect(() => decodeScript(fromHex('05aabb'))).toThrow(ScriptError);
  });

  it('minimal pushes', () => {
    expect(toHex(pushData(new Uint8Array(75))).slice(0, 2)).toBe('4b');
    expect(toHex(pushData(new Uint8Array(76))).slice(0, 4)).toBe('4c4c');
    expect(toHex(pushData(new Uint8Array(256))).slice(0, 6)).toBe('4d0001');
    for (const n of [0, 1, 75, 76, 255, 256, 1000]) {
      const data = new Uint8Array(n).map((_, i) => i & 0xff);
      const [op] = decodeScript(pushData(data));
      expect(toHex(op!.data!)).toBe(toHex(data));
    }
  });

  it('builders validate hash length', () => {
    expect(() => p2pkhScript(new Uint8Array(21))).toThrow(ScriptError);
    expect(() => p2shScript(new Uint8Array(19))).toThrow(ScriptError);
  });
});
