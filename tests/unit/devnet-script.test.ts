// The devnet chain's P2PKH signature check (OpenSSL for the curve arithmetic, noble's strict
// DER and low-S rules): it must give exactly noble's verdicts, on the main thread and on the
// signature worker, and inline when the worker dies.
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { concatBytes, hash160 } from '../../lib/doge/bytes';
import { p2pkhScript, pushData } from '../../lib/doge/script';
import type { RawTx } from '../../lib/doge/tx';
import { checkP2pkhSpend, legacySighash, p2pkhSpendCheck, verifySigCheck, SIGHASH_ALL, type SigCheck } from '../../lib/chain/devnet/script';
import { SigVerifier } from '../../lib/chain/devnet/sig-verifier';

const KEY = new Uint8Array(32).fill(9);
const N = secp256k1.Point.Fn.ORDER;

function spend(
  opts: {
    compressed?: boolean;
    mutate?: (der: Uint8Array, sig: InstanceType<typeof secp256k1.Signature>) => Uint8Array;
    key?: Uint8Array;
  } = {},
) {
  const compressed = opts.compressed ?? true;
  const pub = secp256k1.getPublicKey(opts.key ?? KEY, compressed);
  const prevScript = p2pkhScript(hash160(secp256k1.getPublicKey(KEY, compressed)));
  const unsigned: RawTx = {
    version: 1,
    inputs: [{ prevTxid: new Uint8Array(32).fill(1), vout: 0, scriptSig: new Uint8Array(0), sequence: 0xffffffff }],
    outputs: [{ value: 100_000_000n, script: prevScript }],
    locktime: 0,
  };
  const msg = legacySighash(unsigned, 0, prevScript, SIGHASH_ALL);
  const raw = secp256k1.sign(msg, opts.key ?? KEY, { prehash: false, format: 'compact', lowS: true });
  const sig = secp256k1.Signature.fromBytes(raw, 'compact');
  const der = opts.mutate ? opts.mutate(sig.toBytes('der'), sig) : sig.toBytes('der');
  const scriptSig = concatBytes(pushData(concatBytes(der, Uint8Array.of(SIGHASH_ALL))), pushData(pub));
  return { tx: { ...unsigned, inputs: [{ ...unsigned.inputs[0], scriptSig }] }, prevScript };
}

describe('checkP2pkhSpend', () => {
  it('accepts a valid low-S signature, compressed and uncompressed keys', () => {
    for (const compressed of [true, false]) {
      const { tx, prevScript } = spend({ compressed });
      expect(checkP2pkhSpend(tx, 0, prevScript)).toBeNull();
    }
  });

  it('refuses a high-S signature (valid ECDSA, non-standard)', () => {
    const { tx, prevScript } = spend({ mutate: (_der, sig) => new secp256k1.Signature(sig.r, N - sig.s).toBytes('der') });
    expect(checkP2pkhSpend(tx, 0, prevScript)).toMatch(/signature verification failed/);
  });

  it('refuses a signature over another message, and non-strict DER', () => {
    const other = spend({ mutate: (_der, sig) => new secp256k1.Signature(sig.r, sig.s - 1n).toBytes('der') });
    expect(checkP2pkhSpend(other.tx, 0, other.prevScript)).toMatch(/signature verification failed/);
    // An extra zero byte of padding in r: a BER encoding strict DER forbids.
    const padded = spend({
      mutate: (der) => {
        const rLen = der[3];
        const out = concatBytes(Uint8Array.of(0x30, der[1] + 1, 0x02, rLen + 1, 0x00), der.subarray(4));
        return out;
      },
    });
    expect(checkP2pkhSpend(padded.tx, 0, padded.prevScript)).toMatch(/signature verification failed/);
  });

  it('refuses a key that does not match the output', () => {
    const { tx, prevScript } = spend({ key: new Uint8Array(32).fill(3) });
    expect(checkP2pkhSpend(tx, 0, prevScript)).toMatch(/public key does not match/);
  });
});

describe('SigVerifier (the signature worker)', () => {
  const checkOf = (s: ReturnType<typeof spend>) => p2pkhSpendCheck(s.tx, 0, s.prevScript) as SigCheck;
  const valid = [checkOf(spend()), checkOf(spend({ compressed: false }))];
  const wrong = checkOf(spend({ mutate: (_der, sig) => new secp256k1.Signature(sig.r, sig.s - 1n).toBytes('der') }));
  // A 33-byte "key" off the curve: OpenSSL refuses it, noble decides (invalid).
  const offCurve: SigCheck = { ...valid[0], pubkey: Uint8Array.of(0x02, ...new Uint8Array(32).fill(0xff)) };

  it('gives the main thread verdicts for valid, wrong and refused-key checks, in order', async () => {
    const v = new SigVerifier({ quietMs: null });
    try {
      const checks = [valid[0], wrong, offCurve, valid[1]];
      expect(await v.verify(checks)).toEqual([true, false, false, true]);
      expect(checks.map(verifySigCheck)).toEqual([true, false, false, true]);
      expect(await v.verify([])).toEqual([]);
      // Concurrent requests each get their own answers.
      expect(await Promise.all([v.verify([wrong]), v.verify([valid[1], valid[0]])])).toEqual([[false], [true, true]]);
      await v.close(); // a later check starts a new worker
      expect(await v.verify([valid[0]])).toEqual([true]);
    } finally {
      await v.close();
    }
  });

  it('runs a lone check inline without starting the worker; checks asked for together go to the worker', async () => {
    const v = new SigVerifier({ quietMs: 1_000 });
    try {
      expect(await v.verify([valid[0]])).toEqual([true]);
      expect(v.workerRunning).toBe(false);
      const both = await Promise.all([v.verify([wrong]), v.verify([valid[1]])]); // asked for within quietMs of the last
      expect(both).toEqual([[false], [true]]);
      expect(v.workerRunning).toBe(true);
    } finally {
      await v.close();
    }
  });

  it('gives up a worker that does not answer and checks inline', async () => {
    const v = new SigVerifier({
      quietMs: null,
      answerMs: 200,
      workerSource: `require('node:worker_threads').parentPort.on('message', () => {});`,
    });
    try {
      expect(await v.verify([valid[0], wrong])).toEqual([true, false]);
      expect(v.workerRunning).toBe(false);
      expect(await v.verify([valid[1]])).toEqual([true]);
    } finally {
      await v.close();
    }
  });

  it('checks inline when the worker dies with checks pending, and from then on', async () => {
    const v = new SigVerifier({
      quietMs: null,
      workerSource: `require('node:worker_threads').parentPort.on('message', () => process.exit(3));`,
    });
    try {
      expect(await v.verify([valid[0], wrong])).toEqual([true, false]);
      expect(await v.verify([wrong, valid[1]])).toEqual([false, true]);
    } finally {
      await v.close();
    }
  });
});
