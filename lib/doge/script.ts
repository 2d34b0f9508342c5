/**
 * scriptPubKey parsing, classification and construction.
 * @module
 */
import { concatBytes, equalBytes } from './bytes';
import { ScriptError } from './errors';

export const OP = Object.freeze({
  OP_0: 0x00,
  OP_PUSHDATA1: 0x4c,
  OP_PUSHDATA2: 0x4d,
  OP_PUSHDATA4: 0x4e,
  OP_1NEGATE: 0x4f,
  OP_1: 0x51,
  OP_16: 0x60,
  OP_RETURN: 0x6a,
  OP_DUP: 0x76,
  OP_EQUAL: 0x87,
  OP_EQUALVERIFY: 0x88,
  OP_HASH160: 0xa9,
  OP_CHECKSIG: 0xac,
  OP_CHECKMULTISIG: 0xae,
} as const);

/** Largest OP_RETURN payload Dogecoin Core 1.14.5+ relays (80 bytes; 83-byte script). */
export const MAX_OP_RETURN_PAYLOAD = 80;
export const MAX_OP_RETURN_SCRIPT = 83;

/** One script element: an opcode, with its pushed bytes for push opcodes (0x00..0x4e). */
export interface ScriptOp {
  readonly op: number;
  readonly data?: Uint8Array;
}

/** Split a script into opcodes. Throws `ScriptError('truncated')` when a push runs past the end. */
export function decodeScript(script: Uint8Array): ScriptOp[] {
  const ops: ScriptOp[] = [];
  let i = 0;
  while (i < script.length) {
    const op = script[i++]!;
    if (op > OP.OP_PUSHDATA4) {
      ops.push({ op });
      continue;
    }
    let len: number;
    if (op < OP.OP_PUSHDATA1) len = op;
    else {
      const width = op === OP.OP_PUSHDATA1 ? 1 : op === OP.OP_PUSHDATA2 ? 2 : 4;
      if (i + width > script.length) throw new ScriptError('truncated', 'truncated push length');
      len = 0;
      for (let k = width - 1; k >= 0; k--) len = len * 256 + script[i + k]!;
      i += width;
    }
    if (i + len > script.length) throw new ScriptError('truncated', 'push runs past the end of the script');
    ops.push({ op, data: script.slice(i, i + len) });
    i += len;
  }
  return ops;
}

/** The script that pushes `data` with the minimal push opcode. */
export function pushData(data: Uint8Array): Uint8Array {
  const n = data.length;
  let prefix: number[];
  if (n < OP.OP_PUSHDATA1) prefix = [n];
  else if (n <= 0xff) prefix = [OP.OP_PUSHDATA1, n];
  else if (n <= 0xffff) prefix = [OP.OP_PUSHDATA2, n & 0xff, n >> 8];
  else throw new ScriptError('size', 'push too large');
  return concatBytes(Uint8Array.from(prefix), data);
}

/** Core's IsPushOnly: every opcode up to OP_16 (OP_RESERVED included). */
function isPushOp(op: number): boolean {
  return op <= OP.OP_16;
}

/** Decode a small-integer opcode (OP_0, OP_1..OP_16), or -1. */
function smallInt(op: number): number {
  if (op === OP.OP_0) return 0;
  if (op >= OP.OP_1 && op <= OP.OP_16) return op - OP.OP_1 + 1;
  return -1;
}

function isPubkey(b: Uint8Array): boolean {
  if (b.length === 33) return b[0] === 0x02 || b[0] === 0x03;
  if (b.length === 65) return b[0] === 0x04 || b[0] === 0x06 || b[0] === 0x07;
  return false;
}

export type ScriptType = 'p2pkh' | 'p2sh' | 'p2pk' | 'multisig' | 'nulldata' | 'witness' | 'nonstandard';

export type ScriptInfo =
  | { type: 'p2pkh'; hash160: Uint8Array; standard: true }
  | { type: 'p2sh'; hash160: Uint8Array; standard: true }
  | { type: 'p2pk'; pubkey: Uint8Array; standard: true }
  | { type: 'multisig'; m: number; pubkeys: Uint8Array[]; standard: boolean }
  /** `payload`: the pushed bytes after OP_RETURN, concatenated (small-int pushes as one byte). */
  | { type: 'nulldata'; payload: Uint8Array; standard: boolean }
  /** A segwit program. Dogecoin has no segwit: never standard, never an address. */
  | { type: 'witness'; version: number; program: Uint8Array; standard: false }
  | { type: 'nonstandard'; standard: false };

/** Classify a scriptPubKey the way Dogecoin Core's `Solver` and `IsStandard` do. */
export function classifyScript(script: Uint8Array): ScriptInfo {
  const s = script;
  const n = s.length;
  if (n === 25 && s[0] === OP.OP_DUP && s[1] === OP.OP_HASH160 && s[2] === 20 && s[23] === OP.OP_EQUALVERIFY && s[24] === OP.OP_CHECKSIG)
    return { type: 'p2pkh', hash160: s.slice(3, 23), standard: true };
  if (n === 23 && s[0] === OP.OP_HASH160 && s[1] === 20 && s[22] === OP.OP_EQUAL)
    return { type: 'p2sh', hash160: s.slice(2, 22), standard: true };
  // Witness program: version opcode then one direct push of 2..40 bytes (BIP141 IsWitnessProgram).
  if (n >= 4 && n <= 42 && smallInt(s[0]!) >= 0 && s[1]! + 2 === n && s[1]! >= 2 && s[1]! <= 40)
    return { type: 'witness', version: smallInt(s[0]!), program: s.slice(2), standard: false };
  if (n > 0 && s[0] === OP.OP_RETURN) return classifyNulldata(s);

  let ops: ScriptOp[];
  try {
    ops = decodeScript(s);
  } catch {
    return { type: 'nonstandard', standard: false };
  }
  if (ops.length === 2 && ops[0]!.data && isPubkey(ops[0]!.data) && ops[1]!.op === OP.OP_CHECKSIG && ops[0]!.op === ops[0]!.data.length)
    return { type: 'p2pk', pubkey: ops[0]!.data, standard: true };
  const multi = classifyMultisig(ops);
  if (multi) return multi;
  return { type: 'nonstandard', standard: false };
}

function classifyNulldata(s: Uint8Array): ScriptInfo {
  let ops: ScriptOp[];
  try {
    ops = decodeScript(s.subarray(1));
  } catch {
    return { type: 'nonstandard', standard: false };
  }
  const parts: Uint8Array[] = [];
  for (const { op, data } of ops) {
    if (!isPushOp(op)) return { type: 'nonstandard', standard: false };
    if (data) parts.push(data);
    else if (op === OP.OP_1NEGATE) parts.push(Uint8Array.of(0x81));
    else if (smallInt(op) > 0) parts.push(Uint8Array.of(smallInt(op)));
    // OP_RESERVED (0x50) counts as push-only but pushes nothing meaningful.
  }
  return { type: 'nulldata', payload: concatBytes(...parts), standard: s.length <= MAX_OP_RETURN_SCRIPT };
}

function classifyMultisig(ops: ScriptOp[]): ScriptInfo | null {
  if (ops.length < 4 || ops[ops.length - 1]!.op !== OP.OP_CHECKMULTISIG) return null;
  const m = smallInt(ops[0]!.op);
  const n = smallInt(ops[ops.length - 2]!.op);
  if (m < 1 || n < 1 || m > n || ops.length !== n + 3) return null;
  const pubkeys: Uint8Array[] = [];
  for (const o of ops.slice(1, -2)) {
    if (!o.data || !isPubkey(o.data)) return null;
    pubkeys.push(o.data);
  }
  // IsStandard: bare multisig with at most 3 keys.
  return { type: 'multisig', m, pubkeys, standard: n <= 3 };
}

function assertHash160(hash: Uint8Array): void {
  if (!(hash instanceof Uint8Array) || hash.length !== 20) throw new ScriptError('size', 'expected a 20-byte hash');
}

/** OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG */
export function p2pkhScript(hash: Uint8Array): Uint8Array {
  assertHash160(hash);
  return concatBytes(Uint8Array.of(OP.OP_DUP, OP.OP_HASH160, 20), hash, Uint8Array.of(OP.OP_EQUALVERIFY, OP.OP_CHECKSIG));
}

/** OP_HASH160 <20> OP_EQUAL */
export function p2shScript(hash: Uint8Array): Uint8Array {
  assertHash160(hash);
  return concatBytes(Uint8Array.of(OP.OP_HASH160, 20), hash, Uint8Array.of(OP.OP_EQUAL));
}

/** OP_RETURN <payload> with a minimal push; payload at most 80 bytes (relay policy). */
export function nulldataScript(payload: Uint8Array): Uint8Array {
  if (payload.length > MAX_OP_RETURN_PAYLOAD)
    throw new ScriptError('size', `OP_RETURN payload of ${payload.length} bytes exceeds ${MAX_OP_RETURN_PAYLOAD}`);
  return concatBytes(Uint8Array.of(OP.OP_RETURN), pushData(payload));
}

/** True if both scripts are byte-identical. */
export function scriptEquals(a: Uint8Array, b: Uint8Array): boolean {
  return equalBytes(a, b);
}
