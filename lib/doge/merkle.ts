/**
 * Bitcoin-style merkle trees over sha256d, all hashes in internal byte order.
 * @module
 */
import { concatBytes, equalBytes, sha256d } from './bytes';

function pair(a: Uint8Array, b: Uint8Array): Uint8Array {
  return sha256d(concatBytes(a, b));
}

/**
 * Merkle root of `leaves` (odd levels duplicate their last hash). `mutated` flags a level with
 * two identical adjacent hashes (CVE-2012-2459), as Core's ComputeMerkleRoot does.
 */
export function merkleRootMutated(leaves: readonly Uint8Array[]): { root: Uint8Array; mutated: boolean } {
  if (leaves.length === 0) return { root: new Uint8Array(32), mutated: false };
  let level = leaves.slice();
  let mutated = false;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = level[i + 1] ?? left;
      if (i + 1 < level.length && equalBytes(left, right)) mutated = true;
      next.push(pair(left, right));
    }
    level = next;
  }
  return { root: level[0]!, mutated };
}

export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return merkleRootMutated(leaves).root;
}

/** Sibling hashes from leaf `index` up to the root (for AuxPoW-style branches). */
export function merkleBranch(leaves: readonly Uint8Array[], index: number): Uint8Array[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) throw new RangeError('leaf index out of range');
  const branch: Uint8Array[] = [];
  let level = leaves.slice();
  let i = index;
  while (level.length > 1) {
    branch.push(level[i ^ 1] ?? level[i]!);
    const next: Uint8Array[] = [];
    for (let k = 0; k < level.length; k += 2) next.push(pair(level[k]!, level[k + 1] ?? level[k]!));
    level = next;
    i >>= 1;
  }
  return branch;
}

/**
 * Fold a branch onto `leaf` (CAuxPow::CheckMerkleBranch): at each level the index's low bit
 * says whether the running hash is the right (1) or left (0) child.
 */
export function merkleBranchRoot(leaf: Uint8Array, branch: readonly Uint8Array[], index: number): Uint8Array {
  let h = leaf;
  let i = index;
  for (const sibling of branch) {
    h = i & 1 ? pair(sibling, h) : pair(h, sibling);
    i >>= 1;
  }
  return h;
}
