// The spv node's header sync over P2P (docs/node.md#the-lightweight-node-chain_backendspv): asks peers for headers (getheaders with a
// locator from the stored best chain), stores their answers and announcements in the header
// chain (headers.ts), and never waits on announcements alone. A peer is asked again every
// 10 s while it has shown a height above our tip (its version start height or its last headers
// answer), and every peer every 30 s anyway: a missed or unusable announcement, or a batch that
// failed to store, is caught up by itself. A peer that leaves a getheaders unanswered for 30 s
// is dropped (the pool redials it).
import { parseHeadersMessage } from '../../doge';
import { type Peer, encodeGetHeaders } from '../../p2p';
import { log } from '../../log';
import { HeaderRejected, type HeaderChain } from './headers';

export interface HeaderSyncHost {
  /** The header chain while this node is the active one, else null. */
  chain(): HeaderChain | null;
  readyPeers(): Peer[];
  ban(p: Peer, reason: string): void;
  /** Runs fn after every handler queued before it (the node's one queue). */
  serial<T>(fn: () => Promise<T>): Promise<T>;
}

/** The sync's clock (docs/node.md#the-lightweight-node-chain_backendspv); tests shorten it. */
export interface HeaderSyncTimes {
  /** How often stalled peers are dropped and peers asked again (5 s). */
  tickMs: number;
  /** A peer that has shown a height above our tip is asked again after this long (10 s). */
  behindMs: number;
  /** Every peer is asked again after this long, and dropped if a getheaders waits this long (30 s). */
  anywayMs: number;
}
export const HEADER_SYNC_TIMES: HeaderSyncTimes = { tickMs: 5_000, behindMs: 10_000, anywayMs: 30_000 };

export class HeaderSync {
  /** A peer answered getheaders with fewer than 2,000 headers (nothing left to fetch). */
  headersDone = false;
  /** The best height each peer has shown (version start_height, then its headers answers). */
  private announced = new WeakMap<Peer, number>();
  /** When we last sent each peer a getheaders. */
  private askedAt = new WeakMap<Peer, number>();
  private rate = { t: Date.now(), n: 0, perSec: 0 };

  constructor(
    private readonly host: HeaderSyncHost,
    readonly times: HeaderSyncTimes = HEADER_SYNC_TIMES,
  ) {}

  /** Best height the ready peers have shown. */
  peerHeight(peers: Peer[]): number {
    return Math.max(0, ...peers.map((p) => Math.min(this.announced.get(p) ?? p.remote?.startHeight ?? 0, 2 ** 31)));
  }

  headersPerSec(): number {
    if (Date.now() - this.rate.t > 5_000) this.rate = { t: Date.now(), n: 0, perSec: 0 };
    return this.rate.perSec;
  }

  onReady(p: Peer): void {
    this.announced.set(p, p.remote?.startHeight ?? 0);
    this.askFrom(p);
  }

  /** getheaders from our best chain's locator (queued behind the headers being stored). */
  askFrom(p: Peer): void {
    if (!this.host.chain()) return;
    void this.host.serial(async () => {
      const chain = this.host.chain();
      if (chain) this.ask(p, await chain.locator());
    });
  }

  private ask(p: Peer, locator: string[]): void {
    p.headersAskedAt = Date.now();
    this.askedAt.set(p, p.headersAskedAt);
    p.send('getheaders', encodeGetHeaders(locator));
  }

  /** Every tickMs: drop stalled peers, ask again where we may be behind. */
  tick(): void {
    const chain = this.host.chain();
    if (!chain) return;
    const tip = chain.tip.height;
    for (const p of this.host.readyPeers()) {
      if (p.headersAskedAt) {
        if (Date.now() - p.headersAskedAt > this.times.anywayMs) p.close('headers request timed out');
        continue;
      }
      const since = Date.now() - (this.askedAt.get(p) ?? 0);
      const behind = (this.announced.get(p) ?? p.remote?.startHeight ?? 0) > tip;
      if ((behind && since > this.times.behindMs) || since > this.times.anywayMs) this.askFrom(p);
    }
  }

  /** A `headers` message: an answer to getheaders or an announcement (sendheaders). */
  async onHeaders(p: Peer, payload: Uint8Array): Promise<void> {
    p.headersAskedAt = 0;
    const chain = this.host.chain();
    if (!chain) return;
    let entries;
    try {
      entries = parseHeadersMessage(payload);
    } catch (e) {
      return this.host.ban(p, `bad headers: ${(e as Error).message}`);
    }
    // A short answer means the peer has nothing more after it: the headers are caught up.
    if (entries.length < 2000) this.headersDone = true;
    if (!entries.length) {
      // The peer's best block is in our locator: it is not ahead of us.
      this.announced.set(p, Math.min(this.announced.get(p) ?? 0, chain.tip.height));
      return;
    }
    try {
      const r = await chain.accept(entries);
      const last = r.last ? await chain.get(r.last) : null;
      if (last) this.announced.set(p, entries.length < 2000 ? last.height : Math.max(last.height, this.announced.get(p) ?? 0));
      this.rate.n += r.added;
      const dt = (Date.now() - this.rate.t) / 1000;
      if (dt > 0.5) this.rate.perSec = Math.round(this.rate.n / dt);
      if (r.disconnected) log.info('header reorg', { disconnected: r.disconnected, tip: chain.tip.height });
      if (r.added === 0 && !(await chain.get(entries[0]!.header.prevHash))) {
        this.ask(p, await chain.locator()); // unconnected announcement
      } else if (entries.length >= 2000) {
        this.ask(p, [r.last!, ...(await chain.locator())]);
      }
    } catch (e) {
      if (e instanceof HeaderRejected) return this.host.ban(p, e.message);
      this.announced.set(p, Number.MAX_SAFE_INTEGER); // not stored: ask again soon (tick)
      throw e;
    }
  }
}
