// The spv node's blocks: asked of one peer as filtered blocks (getdata MSG_FILTERED_BLOCK), each
// answered by a merkleblock whose proof is verified here, followed by the txs it matched. A ping
// round trip (round-trip.ts) marks the end of the answer; a block or a matched tx missing then
// is the peer's failure (BackendUnavailableError), never a block with fewer txs.
import { hashToHex, parseMerkleBlock, verifyMerkleBlock, type RawTx } from '../../doge';
import { type Peer, INV_FILTERED_BLOCK, encodeInv } from '../../p2p';
import { shapeOfParsed, txFacts } from '../tx-facts';
import { BackendUnavailableError, type BlockSummary, type BlockTxSummary } from '../backend';
import type { RoundTrips } from './round-trip';

interface BlockCollect {
  want: Set<string>;
  got: Map<string, { summary: BlockSummary; matched: Map<string, number> }>; // matched: txid -> position in the block
  current: string | null;
}

export interface FilteredBlocksHost {
  /** The height of a block of the header chain, or null when it is not in it. */
  heightOf(hash: string): Promise<number | null>;
  /** A fetched block mined these txs: they leave the node's mempool view. */
  mined(txids: string[]): void;
}

export class FilteredBlocks {
  private collect: BlockCollect | null = null;

  constructor(
    private readonly host: FilteredBlocksHost,
    private readonly roundTrips: RoundTrips,
  ) {}

  /** A `merkleblock` we asked for: its proof verified, its matched txs expected next. */
  onMerkleBlock(payload: Uint8Array): void {
    const c = this.collect;
    const mb = parseMerkleBlock(payload);
    const hash = mb.entry.header.hash;
    if (!c || !c.want.has(hash)) return; // unsolicited
    const res = verifyMerkleBlock(mb);
    if (!res) throw new Error(`merkleblock ${hash} has an invalid proof`);
    const h = mb.entry.header;
    c.current = hash;
    c.got.set(hash, {
      matched: new Map(res.matches.map((m) => [hashToHex(m.txid), m.index])),
      summary: {
        hash,
        prevHash: h.prevHash,
        height: -1,
        time: h.time,
        header: h.raw,
        size: 0,
        txCount: mb.tree.totalTransactions,
        totalTxSize: 0,
        txs: [],
      },
    });
  }

  /** Takes a `tx` the last merkleblock matched; false when it is no block's (a mempool tx). */
  takeMatchedTx(txid: string, tx: RawTx, payload: Uint8Array): boolean {
    const c = this.collect;
    const cur = c?.current ? c.got.get(c.current) : undefined;
    if (!cur || !cur.matched.has(txid)) return false;
    if (!cur.summary.txs.some((t) => t.txid === txid))
      cur.summary.txs.push(txFacts({ ...shapeOfParsed(txid, tx, payload), index: cur.matched.get(txid) }, 'mined'));
    return true;
  }

  /** The blocks, asked of `peer`, in the order asked (one fetch at a time: the caller's lock). */
  async fetch(peer: Peer, hashes: string[], timeoutMs: number): Promise<BlockSummary[]> {
    const c: BlockCollect = { want: new Set(hashes), got: new Map(), current: null };
    this.collect = c;
    try {
      peer.send('getdata', encodeInv(hashes.map((h) => ({ type: INV_FILTERED_BLOCK, hash: h }))));
      await this.roundTrips.roundTrip(peer, timeoutMs);
    } finally {
      this.collect = null;
    }
    const out: BlockSummary[] = [];
    for (const h of hashes) {
      const b = c.got.get(h);
      if (!b) throw new BackendUnavailableError(`peer ${peer.id} did not send block ${h}`);
      if (b.summary.txs.length !== b.matched.size)
        throw new BackendUnavailableError(`peer ${peer.id} sent ${b.summary.txs.length} of ${b.matched.size} matched txs of ${h}`);
      const height = await this.host.heightOf(h);
      if (height === null) throw new BackendUnavailableError(`block ${h} is not in the header chain`);
      this.host.mined(b.summary.txs.map((t) => t.txid));
      out.push(withTxs({ ...b.summary, height }, b.summary.txs));
    }
    return out;
  }
}

/** The block with these matched txs, in block order; only they are known, so the sizes count the header and them (README). */
function withTxs(block: BlockSummary, txs: BlockTxSummary[]): BlockSummary {
  const sorted = [...txs].sort((x, y) => (x.index ?? 0) - (y.index ?? 0));
  const totalTxSize = sorted.reduce((n, t) => n + (t.raw?.length ?? 0), 0);
  return { ...block, txs: sorted, totalTxSize, size: 80 + totalTxSize };
}

/** One block as the peers of each filter share sent it (peer-filters.ts): every matched tx once, in block order. */
export function mergeShares(parts: BlockSummary[]): BlockSummary {
  const txs = new Map<string, BlockTxSummary>();
  for (const part of parts) for (const t of part.txs) if (!txs.has(t.txid)) txs.set(t.txid, t);
  return withTxs(parts[0]!, [...txs.values()]);
}
