import { sha256 } from '@noble/hashes/sha2.js';

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** True when `s` is hex (either case) of even length; `bytes` additionally fixes the decoded length. */
export function isHex(s: unknown, bytes?: number): s is string {
  if (typeof s !== 'string' || !HEX_RE.test(s)) return false;
  return bytes === undefined || s.length === bytes * 2;
}

/** Hex (either case) to bytes, or undefined when not even-length hex. */
export function hexToBytesOrUndefined(s: string): Uint8Array | undefined {
  if (!isHex(s)) return undefined;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** SHA-256(SHA-256(data)): the message the envelope signature covers. */
export function sha256d(data: Uint8Array): Uint8Array {
  return sha256(sha256(data));
}

/**
 * Constant-time equality. Running time depends only on `expected.length` (public), never on
 * where the inputs differ; a length mismatch is folded into the result without an early exit.
 */
export function constantTimeEqual(expected: Uint8Array, actual: Uint8Array): boolean {
  let diff = expected.length ^ actual.length;
  for (let i = 0; i < expected.length; i++) diff |= expected[i] ^ (i < actual.length ? actual[i] : 0);
  return diff === 0;
}
