// Hex and hashing are shared with lib/doge; this module adds what the envelope code needs.
import { isHex } from '../doge/client';

export { isHex, sha256d } from '../doge/client';

/** Hex (either case) to bytes, or undefined when not even-length hex. */
export function hexToBytesOrUndefined(s: string): Uint8Array | undefined {
  if (!isHex(s)) return undefined;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(i * 2, i * 2 + 2), 16);
  return out;
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
