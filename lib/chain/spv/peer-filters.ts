// The spv node's BIP37 filter on its peers: built from the watch set (watch.ts), reloaded on every
// ready peer when the set's fingerprint changes, and loaded on each peer as it becomes ready.
// Which peers hold a filter matters beyond this file: filteradd and mempool are only valid after
// a filterload, so a broadcast (broadcast.ts) reads and extends `filtered`.
import type { Db } from '../../db';
import { hexToHash } from '../../doge';
import { type Peer, encodeFilterAdd, encodeFilterLoad } from '../../p2p';
import { buildFilter, fingerprint, loadWatchSet } from './watch';

export class PeerFilters {
  /** Peers that have our filter loaded (filteradd and mempool are only valid after filterload). */
  readonly filtered = new WeakSet<Peer>();
  private filter: { fp: string; payload: Uint8Array } | null = null;

  /**
   * Reload the bloom filter on every peer when the watch set changed. `unseenBroadcasts`: the
   * txids of our broadcasts still waiting for their evidence (kept in the new filter).
   */
  async refresh(db: Db, peers: readonly Peer[], unseenBroadcasts: () => Iterable<string>): Promise<boolean> {
    const w = await loadWatchSet(db);
    const fp = fingerprint(w);
    if (this.filter?.fp === fp) return false;
    this.filter = { fp, payload: encodeFilterLoad(buildFilter(w)) };
    for (const p of peers) this.load(p, unseenBroadcasts());
    return true;
  }

  /** Load the filter on one peer (that serves bloom filters), with our unseen broadcasts added. */
  load(p: Peer, unseenBroadcasts: Iterable<string>): void {
    if (!this.filter || !p.hasBloom) return;
    p.send('filterload', this.filter.payload);
    this.filtered.add(p);
    // A broadcast still waiting for its evidence keeps its txid in the new filter.
    for (const txid of unseenBroadcasts) p.send('filteradd', encodeFilterAdd(hexToHash(txid)));
  }
}
