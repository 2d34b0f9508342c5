// Wallet SDK: building and signing the payment transaction. Signatures are checked with the
// devnet chain's legacy script verifier.
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { REGTEST, decodeTx, encodeWif, parseTx, pubkeyToAddress, toHex, addressToScript } from '../../lib/doge';
import { buildPaymentTx, HARD_DUST_LIMIT, SOFT_DUST_LIMIT, feeFor, type WalletUtxo } from '../../lib/wallet';
import { checkP2pkhSpend } from '../../lib/chain/devnet/script';
import { ConnectPaymentSchema } from '../../lib/connect';
import { SHOP_ADDRESS, makePayment } from '../helpers/connect-payment';

const KEY = new Uint8Array(32).fill(7);
const WIF = encodeWif(KEY, true, REGTEST);
const ME = pubkeyToAddress(secp256k1.getPublicKey(KEY, true), REGTEST);
const ME_SCRIPT = toHex(addressToScript(ME, REGTEST));
const DOGE = 100_000_000n;

function utxo(n: number, amount: bigint): WalletUtxo {
  return { txid: n.toString(16).padStart(64, '0'), vout: n % 3, amount, address: ME };
}
function payment(over = {}) {
  return ConnectPaymentSchema.parse(makePayment(over));
}
function checkAll(hex: string, utxos: WalletUtxo[]) {
  const tx = parseTx(hex);
  tx.inputs.forEach((_, i) => expect(checkP2pkhSpend(tx, i, addressToScript(utxos[i].address!, REGTEST))).toBeNull());
}

describe('buildPaymentTx', () => {
  it('pays every output exactly, carries the data output as OP_RETURN, returns change, meets fee_per_kb', () => {
    const p = payment();
    const utxos = [utxo(1, 50n * DOGE)];
    const r = buildPaymentTx(p, { network: 'regtest', utxos, keys: [WIF] });
    const d = decodeTx(r.hex, REGTEST);
    expect(d.txid).toBe(r.txid);
    expect(d.size).toBe(r.size);
    expect(d.outputs[0]).toMatchObject({ address: SHOP_ADDRESS, value: 2_205_000_000n, type: 'p2pkh' });
    expect(d.outputs[1]).toMatchObject({ type: 'nulldata', data: '68656c6c6f', value: 0n });
    expect(d.outputs[2]).toMatchObject({ address: ME, script: ME_SCRIPT });
    expect(d.outputs).toHaveLength(3);
    const out = d.outputs.reduce((s, o) => s + o.value, 0n);
    expect(50n * DOGE - out).toBe(r.fee);
    expect(r.fee * 1000n >= 1_000_000n * BigInt(r.size)).toBe(true);
    expect(r.fee >= feeFor(r.size, 1_000_000n) && r.fee <= feeFor(r.size + 4, 1_000_000n)).toBe(true); // signature slack: draft and final sizes differ by at most 2 bytes, plus 2 of margin
    expect(r.change).toEqual({ address: ME, amount: d.outputs[2].value, vout: 2 });
    expect(d.signalsRbf).toBe(false);
    checkAll(r.hex, utxos);
  });

  it('uses the higher of fee_per_kb and the wallet rate', () => {
    const r = buildPaymentTx(payment({ fee_per_kb: '0.5' }), { network: 'regtest', utxos: [utxo(1, 50n * DOGE)], keys: [WIF] });
    expect(r.fee >= feeFor(r.size, 50_000_000n) && r.fee <= feeFor(r.size + 4, 50_000_000n)).toBe(true);
    expect(r.fee * 1000n >= 50_000_000n * BigInt(r.size)).toBe(true);
    const w = buildPaymentTx(payment({ fee_per_kb: '0.001' }), {
      network: 'regtest',
      utxos: [utxo(1, 50n * DOGE)],
      keys: [WIF],
      feePerKb: 2_000_000n,
    });
    expect(w.fee >= feeFor(w.size, 2_000_000n) && w.fee <= feeFor(w.size + 4, 2_000_000n)).toBe(true);
  });

  it('adds inputs until outputs and fee are covered, and signs each one', () => {
    const utxos = [utxo(1, 10n * DOGE), utxo(2, 8n * DOGE), utxo(3, 7n * DOGE)];
    const r = buildPaymentTx(payment(), { network: 'regtest', utxos, keys: [KEY] });
    expect(r.inputs.map((u) => u.amount)).toEqual([10n * DOGE, 8n * DOGE, 7n * DOGE]);
    const d = decodeTx(r.hex, REGTEST);
    expect(d.inputs.map((i) => i.prevTxid)).toEqual(r.inputs.map((u) => u.txid));
    checkAll(r.hex, r.inputs);
    expect(25n * DOGE - d.outputs.reduce((s, o) => s + o.value, 0n)).toBe(r.fee);
  });

  it('drops change below the dust limit into the fee', () => {
    // 22.05 + ~0.0026 fee leaves ~0.005 change: dust, so no change output
    const utxos = [utxo(1, 2_205_000_000n + 800_000n)];
    const r = buildPaymentTx(payment(), { network: 'regtest', utxos, keys: [WIF] });
    const d = decodeTx(r.hex, REGTEST);
    expect(r.change).toBeNull();
    expect(d.outputs).toHaveLength(2);
    expect(r.fee).toBe(800_000n);
    expect(r.fee < SOFT_DUST_LIMIT).toBe(true);
    expect(r.fee * 1000n >= 1_000_000n * BigInt(r.size)).toBe(true);
  });

  it('refuses insufficient funds, dust outputs, foreign keys, wrong-network addresses and max_size', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
        return 'none';
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(code(() => buildPaymentTx(payment(), { network: 'regtest', utxos: [utxo(1, 22n * DOGE)], keys: [WIF] }))).toBe(
      'insufficient_funds',
    );
    expect(code(() => buildPaymentTx(payment(), { network: 'regtest', utxos: [utxo(1, 2_205_000_000n + 100n)], keys: [WIF] }))).toBe(
      'insufficient_funds',
    );
    expect(
      code(() =>
        buildPaymentTx(payment({ outputs: [{ address: SHOP_ADDRESS, amount: '0.0009' }], total: '0.0009', items: [] }), {
          network: 'regtest',
          utxos: [utxo(1, DOGE)],
          keys: [WIF],
        }),
      ),
    ).toBe('dust_output');
    expect(HARD_DUST_LIMIT).toBe(100_000n);
    const other = new Uint8Array(32).fill(8);
    expect(code(() => buildPaymentTx(payment(), { network: 'regtest', utxos: [utxo(1, 50n * DOGE)], keys: [other] }))).toBe('no_key');
    expect(
      code(() =>
        buildPaymentTx(payment({ outputs: [{ address: 'DPD7uK4B1kRmbfGmytBhG1DZjaMWNfbpwY', amount: '22.05' }] }), {
          network: 'regtest',
          utxos: [utxo(1, 50n * DOGE)],
          keys: [WIF],
        }),
      ),
    ).toBe('bad_network');
    expect(code(() => buildPaymentTx(payment({ max_size: 200 }), { network: 'regtest', utxos: [utxo(1, 50n * DOGE)], keys: [WIF] }))).toBe(
      'too_large',
    );
  });

  it('pays the soft-dust fee for an output under 0.01 DOGE', () => {
    const p = payment({ outputs: [{ address: SHOP_ADDRESS, amount: '0.005' }], total: '0.005', items: [] });
    const r = buildPaymentTx(p, { network: 'regtest', utxos: [utxo(1, 5n * DOGE)], keys: [WIF] });
    expect(r.fee - SOFT_DUST_LIMIT >= feeFor(r.size, 1_000_000n) && r.fee - SOFT_DUST_LIMIT <= feeFor(r.size + 4, 1_000_000n)).toBe(true);
    expect(decodeTx(r.hex, REGTEST).outputs[0].value).toBe(500_000n);
  });
});
