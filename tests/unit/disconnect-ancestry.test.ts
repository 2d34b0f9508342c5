// A disconnected block's RBF inheritance (docs/security.md): which txs the block leaves
// replaceable once unmined (BIP125: their own signal, or a replaceable parent in the same
// block), and which unmined payment txs therefore inherit the signal.
import { describe, expect, it } from 'vitest';
import { disconnectAncestry } from '@/lib/payments/disconnect-ancestry';
import type { TxFacts } from '@/lib/chain/tx-facts';

const id = (c: string) => c.repeat(64);
function tx(txid: string, spends: string[], signalsRbf = false): TxFacts {
  return {
    txid,
    inputs: spends.map((p) => ({ txid: p, vout: 0, scriptSig: '' })),
    outputs: [{ n: 0, value: 100_000_000n, script: '' }],
    signalsRbf,
  };
}
const [below, a, b, c, d] = ['0', 'a', 'b', 'c', 'd'].map(id);

describe('disconnectAncestry: a chain inside one disconnected block', () => {
  // a signals; b spends a, c spends b, neither signals: once unmined, both are replaceable by
  // replacing a. The block's order is not the spending order (spv and tests hand txs over in any).
  const block = { txs: [tx(c, [b]), tx(b, [a]), tx(a, [below], true)], txCount: 3 };

  it('makes every descendant of a replaceable tx replaceable, however deep, in any order', () => {
    const anc = disconnectAncestry(block);
    expect(anc.replaceableOutpoints.sort()).toEqual([`${a}:0`, `${b}:0`, `${c}:0`].sort());
    // The unmined payment tx three deep, and a mempool tx spending its output, both inherit.
    expect(anc.unminedInherits({ txid: c, inputs: [`${b}:0`] })).toBe(true);
    expect(anc.unminedInherits({ txid: d, inputs: [`${c}:0`] })).toBe(true);
  });

  it('leaves a chain with no signal final, its parent below still confirmed', () => {
    const anc = disconnectAncestry({ txs: [tx(c, [b]), tx(b, [a]), tx(a, [below])], txCount: 3 });
    expect(anc.replaceableOutpoints).toEqual([]);
    expect(anc.unminedInherits({ txid: c, inputs: [`${b}:0`] })).toBe(false);
    expect(anc.unminedInherits({ txid: a, inputs: [`${below}:0`] })).toBe(false);
  });

  it('takes a parent the block may hold but did not show as replaceable (a block read in part, or not at all)', () => {
    const part = disconnectAncestry({ txs: [tx(c, [b])], txCount: 3 });
    expect(part.unminedInherits({ txid: c, inputs: [`${b}:0`] })).toBe(true);
    expect(part.replaceableOutpoints).toEqual([`${c}:0`]);
    expect(disconnectAncestry(null).unminedInherits({ txid: c, inputs: [`${b}:0`] })).toBe(true);
  });
});
