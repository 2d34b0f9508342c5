// The spv node's BIP37 filters on its peers: built from the watch set (watch.ts) as one filter
// per share, reloaded on every ready peer when the set's fingerprint changes, and loaded on each
// peer as it becomes ready. A connection holds one filter (BIP37), so each share has its own
// connections: a peer holds the share the fewest peers hold, and a block is asked of a holder of
// every share (backend.ts). Which peers hold a filter matters beyond this file: filteradd and
// mempool are only valid after a filterload, so a broadcast (broadcast.ts) reads and extends
// `filtered`.
import type { Db } from '../../db';
import { hexToHash } from '../../doge';
import { type Peer, encodeFilterAdd, encodeFilterLoad } from '../../p2p';
import { buildFilters, fingerprint, loadWatchSet } from './watch';

export class PeerFilters {
  /** Peers that have a filter loaded (filteradd and mempool are only valid after filterload). */
  readonly filtered = new WeakSet<Peer>();
  /** The share each peer holds (an index into `shares.payloads`). */
  private shareOfPeer = new WeakMap<Peer, number>();
  private shares: { fp: string; payloads: Uint8Array[] } | null = null;

  /** `perShare`: the most elements one share holds (watch.ts's FILTER_SHARE_ELEMENTS by default). */
  constructor(private readonly perShare?: number) {}

  /** How many shares the filter is split into (1 before the first load). */
  get shareCount(): number {
    return this.shares?.payloads.length ?? 1;
  }

  /**
   * Reload the filters on every peer when the watch set changed, the peers dealt round the shares
   * again. `unseenBroadcasts`: the txids of our broadcasts still waiting for their evidence (kept
   * in every new filter).
   */
  async refresh(db: Db, peers: readonly Peer[], unseenBroadcasts: () => Iterable<string>): Promise<boolean> {
    const w = await loadWatchSet(db);
    const fp = fingerprint(w);
    if (this.shares?.fp === fp) return false;
    this.shares = { fp, payloads: buildFilters(w, this.perShare).map(encodeFilterLoad) };
    const bloom = peers.filter((p) => p.hasBloom);
    bloom.forEach((p, i) => this.send(p, i % this.shareCount, unseenBroadcasts()));
    return true;
  }

  /** Load a filter on one peer (that serves bloom filters): the share the fewest of `peers` hold. */
  load(p: Peer, peers: readonly Peer[], unseenBroadcasts: Iterable<string>): void {
    if (!this.shares || !p.hasBloom) return;
    const held = this.holders(peers.filter((q) => q !== p)).map((h) => h.length);
    this.send(p, held.indexOf(Math.min(...held)), unseenBroadcasts);
  }

  /** The peers holding each share, in share order (an empty list: no connection holds it yet). */
  holders(peers: readonly Peer[]): Peer[][] {
    const out: Peer[][] = Array.from({ length: this.shareCount }, () => []);
    for (const p of peers) {
      const s = this.shareOfPeer.get(p);
      if (s !== undefined && s < out.length && this.filtered.has(p) && !p.closed) out[s]!.push(p);
    }
    return out;
  }

  private send(p: Peer, share: number, unseenBroadcasts: Iterable<string>): void {
    p.send('filterload', this.shares!.payloads[share]!);
    this.filtered.add(p);
    this.shareOfPeer.set(p, share);
    // A broadcast still waiting for its evidence keeps its txid in the new filter.
    for (const txid of unseenBroadcasts) p.send('filteradd', encodeFilterAdd(hexToHash(txid)));
  }
}
