// Building and signing the payment transaction from supplied UTXOs and keys (legacy P2PKH,
// SIGHASH_ALL, with @scure/btc-signer):
//  - every p2pkh output paid exactly, every data output as OP_RETURN <payload>, in payment order;
//  - fee >= max(fee_per_kb, the wallet's own rate) × size / 1000, measured on the signed tx,
//    plus Dogecoin's soft-dust fee for each output under 0.01 DOGE;
//  - size <= max_size;
//  - change (last output) back to the wallet, dropped into the fee when it would be dust.
import { Transaction } from '@scure/btc-signer';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytesOrUndefined, type ConnectPayment } from '../connect';
import {
  addressToScript,
  pubkeyToAddress,
  hash160,
  toHex,
  getNetwork,
  type Network,
  type NetworkName,
  classifyScript,
  nulldataScript,
  p2pkhScript,
  decodeWif,
} from '../doge/client';
import { parseKoinu } from '../money';
import { WalletError } from './errors';

/** Dogecoin Core 1.14.5+ policy (docs/protocol.md#chain-facts-and-policy), in koinu. */
export const HARD_DUST_LIMIT = 100_000n; // 0.001 DOGE: never relayed
export const SOFT_DUST_LIMIT = 1_000_000n; // 0.01 DOGE: each output below it costs this much extra fee
export const RECOMMENDED_FEE_PER_KB = 1_000_000n; // 0.01 DOGE/kB
/**
 * Bytes a re-signed input may grow by (DER r and s can each lose a leading byte in a draft):
 * the fee is computed for the draft's size plus this per input, so it holds for the final bytes.
 */
const SIG_SLACK = 2;

export interface WalletUtxo {
  txid: string; // display-order hex
  vout: number;
  amount: bigint; // koinu
  /** scriptPubKey hex; or give `address`. */
  script?: string;
  address?: string;
}

export interface BuildOptions {
  network: Network | NetworkName;
  utxos: WalletUtxo[];
  /** Private keys: WIF strings or 32-byte secret keys (compressed public keys). */
  keys: (string | Uint8Array)[];
  /** Where change goes (default: the first key's address). */
  changeAddress?: string;
  /** The wallet's own minimum rate in koinu/kB (default 0.01 DOGE); the relay's fee_per_kb applies when higher. */
  feePerKb?: bigint;
  /** Every input's nSequence (default 0xffffffff, final). Below 0xfffffffe signals replace-by-fee (BIP125). */
  sequence?: number;
}

export interface BuiltTx {
  hex: string;
  txid: string;
  size: number;
  fee: bigint;
  inputs: WalletUtxo[];
  change: { address: string; amount: bigint; vout: number } | null;
}

interface Signer {
  priv: Uint8Array;
  script: string;
}

function networkOf(n: Network | NetworkName): Network {
  return typeof n === 'string' ? getNetwork(n) : n;
}

function signersOf(keys: BuildOptions['keys'], network: Network): Map<string, Signer> {
  const out = new Map<string, Signer>();
  for (const k of keys) {
    let priv: Uint8Array;
    let compressed = true;
    if (typeof k === 'string') {
      try {
        const d = decodeWif(k, network);
        priv = d.privateKey;
        compressed = d.compressed;
      } catch (e) {
        throw new WalletError('bad_network', `a key is not a WIF key for ${network.name}: ${(e as Error).message}`);
      }
    } else priv = k;
    const script = toHex(p2pkhScript(hash160(secp256k1.getPublicKey(priv, compressed))));
    out.set(script, { priv, script });
  }
  return out;
}

function utxoScript(u: WalletUtxo, network: Network): string {
  if (u.script) return u.script.toLowerCase();
  if (!u.address) throw new TypeError(`UTXO ${u.txid}:${u.vout} needs a script or an address`);
  try {
    return toHex(addressToScript(u.address, network));
  } catch (e) {
    throw new WalletError('bad_network', `UTXO address ${u.address} is not valid on ${network.name}: ${(e as Error).message}`);
  }
}

type Out = { script: Uint8Array; amount: bigint };

/** The payment's outputs as scripts, in order. */
export function paymentOutputs(payment: ConnectPayment, network: Network | NetworkName): Out[] {
  const net = networkOf(network);
  return payment.outputs.map((o, i) => {
    if (o.type === 'data') return { script: nulldataScript(hexToBytesOrUndefined(o.data ?? '')!), amount: 0n };
    const amount = parseKoinu(o.amount ?? '');
    if (amount < HARD_DUST_LIMIT) throw new WalletError('dust_output', `output ${i} pays ${amount} koinu, below the dust limit`);
    try {
      return { script: addressToScript(o.address ?? '', net), amount };
    } catch (e) {
      throw new WalletError('bad_network', `output ${i}: ${o.address} is not a valid ${net.name} address: ${(e as Error).message}`);
    }
  });
}

function sign(inputs: { u: WalletUtxo; s: Signer }[], outs: Out[], sequence = 0xffffffff): { hex: string; txid: string; size: number } {
  const tx = new Transaction({ version: 1, allowLegacyWitnessUtxo: true, allowUnknownOutputs: true, lowR: true });
  for (const { u, s } of inputs) {
    tx.addInput({ txid: u.txid, index: u.vout, sequence, witnessUtxo: { script: hexToBytesOrUndefined(s.script)!, amount: u.amount } });
  }
  for (const o of outs) tx.addOutput({ script: o.script, amount: o.amount });
  inputs.forEach(({ s }, i) => tx.signIdx(s.priv, i));
  tx.finalize();
  const hex = tx.hex;
  assertPays(hex, outs);
  return { hex, txid: tx.id, size: hex.length / 2 };
}

/**
 * Decode the signed bytes again and check that they pay exactly `outs`, in order: the wallet
 * never hands out a transaction whose outputs differ from what the user was shown.
 */
function assertPays(hex: string, outs: Out[]): void {
  const back = Transaction.fromRaw(hexToBytesOrUndefined(hex)!, { allowUnknownOutputs: true });
  const same =
    back.outputsLength === outs.length &&
    outs.every((o, i) => {
      const got = back.getOutput(i);
      return got.amount === o.amount && got.script !== undefined && toHex(got.script) === toHex(o.script);
    });
  if (!same) throw new Error('internal error: the signed transaction does not pay the payment outputs');
}

/** Fee required for `size` bytes at `rate` koinu/kB, rounded up. */
export function feeFor(size: number, rate: bigint): bigint {
  return (rate * BigInt(size) + 999n) / 1000n;
}

export function buildPaymentTx(payment: ConnectPayment, opts: BuildOptions): BuiltTx {
  const network = networkOf(opts.network);
  const outs = paymentOutputs(payment, network);
  const signers = signersOf(opts.keys, network);
  if (signers.size === 0) throw new WalletError('no_key', 'no signing key supplied');
  const rate = [parseKoinu(payment.fee_per_kb), opts.feePerKb ?? RECOMMENDED_FEE_PER_KB].reduce((a, b) => (a > b ? a : b));
  const softDustFee = SOFT_DUST_LIMIT * BigInt(outs.filter((o) => o.amount > 0n && o.amount < SOFT_DUST_LIMIT).length);
  const changeAddress = opts.changeAddress ?? pubkeyToAddress(secp256k1.getPublicKey([...signers.values()][0].priv, true), network);
  let changeScript: Uint8Array;
  try {
    changeScript = addressToScript(changeAddress, network);
  } catch (e) {
    throw new WalletError('bad_network', `change address ${changeAddress} is not valid on ${network.name}: ${(e as Error).message}`);
  }

  // Spendable inputs, largest first (fewest inputs, smallest tx).
  const usable = opts.utxos
    .map((u) => ({ u, s: signers.get(utxoScript(u, network)) }))
    .filter(
      (x): x is { u: WalletUtxo; s: Signer } =>
        x.s !== undefined && classifyScript(hexToBytesOrUndefined(x.s.script)!).type === 'p2pkh' && x.u.amount > 0n,
    )
    .sort((a, b) => (a.u.amount > b.u.amount ? -1 : a.u.amount < b.u.amount ? 1 : 0));
  if (usable.length === 0)
    throw new WalletError(
      opts.utxos.length ? 'no_key' : 'insufficient_funds',
      opts.utxos.length ? 'no supplied key can spend the UTXOs' : 'no UTXOs to spend',
    );

  const outSum = outs.reduce((s, o) => s + o.amount, 0n);
  let inSum = 0n;
  let lastNeed = 0n;
  for (let n = 1; n <= usable.length; n++) {
    const sel = usable.slice(0, n);
    inSum += sel[n - 1].u.amount;
    if (inSum <= outSum) continue;
    // With change: measure a signed draft, then fix the change amount (same size: amounts are fixed width).
    const draft = sign(sel, [...outs, { script: changeScript, amount: inSum - outSum }], opts.sequence);
    const feeWith = feeFor(draft.size + SIG_SLACK * n, rate) + softDustFee;
    const change = inSum - outSum - feeWith;
    let built: { hex: string; txid: string; size: number } | null = null;
    let fee = 0n;
    let changeOut: BuiltTx['change'] = null;
    if (change >= SOFT_DUST_LIMIT) {
      built = sign(sel, [...outs, { script: changeScript, amount: change }], opts.sequence);
      fee = inSum - outSum - change;
      changeOut = { address: changeAddress, amount: change, vout: outs.length };
    } else {
      const noChange = sign(sel, outs, opts.sequence);
      const need = feeFor(noChange.size + SIG_SLACK * n, rate) + softDustFee;
      lastNeed = outSum + need;
      if (inSum - outSum >= need) {
        built = noChange;
        fee = inSum - outSum; // the dust change goes to the fee
      }
    }
    if (!built) continue;
    // Re-check on the final bytes (SIG_SLACK makes this hold).
    if (fee * 1000n < rate * BigInt(built.size)) continue;
    if (built.size > payment.max_size) {
      throw new WalletError('too_large', `the transaction needs ${built.size} bytes but max_size is ${payment.max_size}`);
    }
    return { ...built, fee, inputs: sel.map((x) => x.u), change: changeOut };
  }
  const have = usable.reduce((s, x) => s + x.u.amount, 0n);
  throw new WalletError(
    'insufficient_funds',
    `the wallet has ${have} koinu; the payment needs ${lastNeed > outSum ? lastNeed : outSum} koinu or more with the fee`,
  );
}
