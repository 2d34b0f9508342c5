/**
 * Transactions: legacy (non-segwit) serialisation, decoding and encoding.
 * @module
 */
import { scriptToAddress } from './address';
import { ByteReader, ByteWriter, fromHex, hashToHex, isHex, sha256d, toHex, type ReadErrorFactory } from './bytes';
import { TxDecodeError } from './errors';
import type { Network } from './network';
import { classifyScript, type ScriptType } from './script';

export interface RawTxInput {
  /** Previous txid, internal byte order (reverse of the display hex). */
  readonly prevTxid: Uint8Array;
  readonly vout: number;
  readonly scriptSig: Uint8Array;
  readonly sequence: number;
}

export interface RawTxOutput {
  /** Koinu (signed 64-bit as serialised). */
  readonly value: bigint;
  readonly script: Uint8Array;
}

export interface RawTx {
  readonly version: number;
  readonly inputs: readonly RawTxInput[];
  readonly outputs: readonly RawTxOutput[];
  readonly locktime: number;
}

export interface TxReadOptions {
  /**
   * Accept (and drop) BIP144 witness data. Only for the parent-chain coinbase inside AuxPoW,
   * which Dogecoin Core deserialises witness-capable; Dogecoin transactions never have one.
   */
  readonly allowWitness?: boolean;
}

const MIN_INPUT_BYTES = 41; // 32 + 4 + 1 + 4
const MIN_OUTPUT_BYTES = 9; // 8 + 1
export const SEQUENCE_FINAL = 0xffffffff;
/** BIP125: an input sequence below this signals replaceability. */
export const SEQUENCE_RBF_THRESHOLD = 0xfffffffe;

const txError: ReadErrorFactory = (code, message) => new TxDecodeError(code, message);

/**
 * Read one transaction at the reader's cursor (used for AuxPoW coinbases and blocks).
 * Errors are thrown by the reader's own error factory.
 */
export function readTx(r: ByteReader, opts: TxReadOptions = {}): RawTx {
  const version = r.i32le('tx version');
  let inCount = r.count(MIN_INPUT_BYTES, 'input count');
  let witness = false;
  if (inCount === 0) {
    const start = r.offset;
    const flag = r.remaining > 0 ? r.bytes[start] : undefined;
    if (flag === 0x01) {
      if (!opts.allowWitness) r.fail('witness', 'segwit serialisation (marker 0x00, flag 0x01) is not valid on Dogecoin');
      r.offset++;
      witness = true;
      inCount = r.count(MIN_INPUT_BYTES, 'input count');
    }
    if (inCount === 0) r.fail('no-inputs', 'transaction has no inputs');
  }
  const inputs: RawTxInput[] = [];
  for (let i = 0; i < inCount; i++) {
    const prevTxid = r.bytesN(32, 'prevout hash');
    const vout = r.u32le('prevout index');
    const scriptSig = r.varBytes('scriptSig');
    const sequence = r.u32le('sequence');
    inputs.push({ prevTxid, vout, scriptSig, sequence });
  }
  const outCount = r.count(MIN_OUTPUT_BYTES, 'output count');
  const outputs: RawTxOutput[] = [];
  for (let i = 0; i < outCount; i++) {
    const value = r.i64le('output value');
    const script = r.varBytes('scriptPubKey');
    outputs.push({ value, script });
  }
  if (witness) {
    for (let i = 0; i < inCount; i++) {
      const items = r.count(1, 'witness item count');
      for (let k = 0; k < items; k++) r.varBytes('witness item');
    }
  }
  const locktime = r.u32le('locktime');
  return { version, inputs, outputs, locktime };
}

function toBytes(input: Uint8Array | string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (!isHex(input)) throw new TxDecodeError('hex', 'transaction hex is not valid hex');
  return fromHex(input);
}

/** Parse one transaction at `offset`; returns it and its serialised length. */
export function parseTxAt(bytes: Uint8Array, offset = 0, opts: TxReadOptions = {}): { tx: RawTx; bytesRead: number } {
  const r = new ByteReader(bytes, offset, txError);
  const tx = readTx(r, opts);
  return { tx, bytesRead: r.offset - offset };
}

/** Parse a whole serialised transaction (no trailing bytes allowed). Throws {@link TxDecodeError}. */
export function parseTx(input: Uint8Array | string): RawTx {
  const bytes = toBytes(input);
  const { tx, bytesRead } = parseTxAt(bytes);
  if (bytesRead !== bytes.length) throw new TxDecodeError('trailing', `${bytes.length - bytesRead} trailing bytes after the transaction`);
  return tx;
}

/** Legacy serialisation. */
export function encodeTx(tx: RawTx): Uint8Array {
  const w = new ByteWriter();
  writeTx(w, tx);
  return w.finish();
}

export function writeTx(w: ByteWriter, tx: RawTx): void {
  if (tx.inputs.length === 0) throw new RangeError('a transaction needs at least one input');
  w.i32le(tx.version).varint(tx.inputs.length);
  for (const i of tx.inputs) {
    if (i.prevTxid.length !== 32) throw new RangeError('prevTxid must be 32 bytes');
    w.bytes(i.prevTxid).u32le(i.vout).varBytes(i.scriptSig).u32le(i.sequence);
  }
  w.varint(tx.outputs.length);
  for (const o of tx.outputs) w.i64le(o.value).varBytes(o.script);
  w.u32le(tx.locktime);
}

/** txid in internal byte order: sha256d of the legacy serialisation. */
export function txHash(tx: RawTx): Uint8Array {
  return sha256d(encodeTx(tx));
}

/** txid (display hex) of a serialised transaction. */
export function txidOf(raw: Uint8Array): string {
  return hashToHex(sha256d(raw));
}

export function isCoinbase(tx: RawTx): boolean {
  return tx.inputs.length === 1 && tx.inputs[0]!.vout === 0xffffffff && tx.inputs[0]!.prevTxid.every((b) => b === 0);
}

/** BIP125 opt-in replace-by-fee: any input sequence below 0xfffffffe. */
export function signalsRbf(tx: RawTx): boolean {
  return tx.inputs.some((i) => i.sequence >>> 0 < SEQUENCE_RBF_THRESHOLD);
}

export interface DecodedTxInput {
  /** Display hex. */
  readonly prevTxid: string;
  readonly vout: number;
  readonly scriptSig: string;
  readonly sequence: number;
}

export interface DecodedTxOutput {
  readonly n: number;
  /** Koinu. */
  readonly value: bigint;
  readonly script: string;
  readonly type: ScriptType;
  /** P2PKH / P2SH address on the given network, else null. */
  readonly address: string | null;
  /** OP_RETURN payload (hex) for `nulldata`, else null. */
  readonly data: string | null;
}

export interface DecodedTx {
  readonly txid: string;
  readonly size: number;
  readonly version: number;
  readonly locktime: number;
  readonly inputs: readonly DecodedTxInput[];
  readonly outputs: readonly DecodedTxOutput[];
  readonly isCoinbase: boolean;
  readonly signalsRbf: boolean;
}

/** Decode a serialised transaction into display form. Throws {@link TxDecodeError}. */
export function decodeTx(input: Uint8Array | string, network: Network): DecodedTx {
  const bytes = toBytes(input);
  const tx = parseTx(bytes);
  return {
    txid: txidOf(bytes),
    size: bytes.length,
    version: tx.version,
    locktime: tx.locktime,
    inputs: tx.inputs.map((i) => ({
      prevTxid: hashToHex(i.prevTxid),
      vout: i.vout,
      scriptSig: toHex(i.scriptSig),
      sequence: i.sequence,
    })),
    outputs: tx.outputs.map((o, n) => {
      const info = classifyScript(o.script);
      return {
        n,
        value: o.value,
        script: toHex(o.script),
        type: info.type,
        address: scriptToAddress(o.script, network),
        data: info.type === 'nulldata' ? toHex(info.payload) : null,
      };
    }),
    isCoinbase: isCoinbase(tx),
    signalsRbf: signalsRbf(tx),
  };
}
