// The wallet rescan as the model-based test (tests/integration/payment-model.test.ts) drives it:
// the real rescan (lib/chain/rescan.ts: startRescan, then rescanStep until done) over the blocks
// the test's node holds, served by a chain that answers from them. A rescan re-finds the txs of
// those blocks for the wallet and never touches a payment: the test compares the payment with
// its model and checks the invariants after it, as after every step.
import { randomBytes } from 'node:crypto';
import type { Db } from '@/lib/db';
import type { BlockSummary } from '@/lib/chain/backend';
import { rescanStep, startRescan } from '@/lib/chain/rescan';
import { sha256d, toHex, type Network } from '@/lib/doge';

/** An 80-byte header and the hash it has (the rescan checks that a block is the one it asked for). */
export function headerAndHash(): { header: Uint8Array; hash: string } {
  const header = new Uint8Array(randomBytes(80));
  return { header, hash: toHex(sha256d(header).reverse()) };
}

/**
 * Rescans `blocks` (consecutive heights, the node's best chain) from `from` to their tip, with
 * their tip as the follower's processed tip. Returns the txids the wallet holds from those blocks.
 */
export async function rescanBlocks(db: Db, network: Network, blocks: BlockSummary[], from: number): Promise<Set<string>> {
  const tip = blocks.at(-1)!;
  // The follower's stored tip (rpc and devnet: the best header row) is where the rescan ends.
  await db.query(`DELETE FROM chain_header`);
  await db.prisma.chainHeader.create({
    data: {
      hash: tip.hash,
      height: tip.height,
      prevHash: tip.prevHash,
      chainwork: 0,
      header: new Uint8Array(tip.header),
      time: tip.time,
      inBest: true,
    },
  });
  const byHeight = new Map(blocks.map((b) => [b.height, b]));
  const byHash = new Map(blocks.map((b) => [b.hash, b]));
  const chain = {
    ownsHeaderStore: false,
    blockHashAt: async (h: number) => byHeight.get(h)?.hash ?? null,
    block: async (hash: string) => byHash.get(hash) ?? Promise.reject(new Error(`no block ${hash}`)),
  };
  await startRescan(db, from, tip.height, 'operator');
  while ((await rescanStep(db, network, chain, { budgetMs: 60_000 })) > 0) {
    /* until it reaches the tip */
  }
  const state = await db.query<{ value: string }>(`SELECT value FROM chain_state WHERE key = 'wallet_rescan'`);
  const r = JSON.parse(String(state[0]!.value)) as { finished_at: string | null; error: string | null; current: number };
  if (!r.finished_at || r.error || r.current !== tip.height) throw new Error(`the rescan did not finish: ${JSON.stringify(r)}`);
  const held = await db.prisma.walletTx.findMany({
    where: { blockHash: { in: blocks.filter((b) => b.height >= from).map((b) => b.hash) } },
    select: { txid: true },
  });
  return new Set(held.map((t) => t.txid));
}
