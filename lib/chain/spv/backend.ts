// The `spv` chain backend (docs/node.md#the-lightweight-node-chain_backendspv): a lightweight P2P node in the style of libdogecoin's
// spvnode. Headers-first sync from a checkpoint into chain_header (headers.ts; the P2P side
// in header-sync.ts), a BIP37 filter over the watch-only wallet (watch.ts, loaded on the peers by
// peer-filters.ts), filtered blocks (merkleblock + tx, proofs verified: filtered-blocks.ts),
// mempool txs relayed to us through the filter, and broadcast by inv/getdata, accepted on
// positive evidence only (tx-relay.ts, broadcast.ts). This file is the node itself: its
// lifecycle, its peer pool and the messages it hands to each part, and the ChainBackend face.
//
// start() makes this the active node (header sync and persistence: only the elected worker
// calls it). Without start(), e.g. in a web process with WORKER=off, broadcast()/inMempool()
// open the peer connections on demand and tip()/blockHashAt() read chain_header.
import type { Db } from '../../db';
import { hashToHex, sha256d, fromHex, type Network, parseTx } from '../../doge';
import type { TxFacts } from '../tx-facts';
import { PeerPool, type Peer, INV_BLOCK, decodeInv, decodeU64, type InvItem } from '../../p2p';
import { log } from '../../log';
import {
  BackendUnavailableError,
  type BlockSummary,
  type BlockTxSummary,
  type BroadcastResult,
  type ChainBackend,
  type InputLookup,
  type Outpoint,
  type SyncStatus as SpvStatus,
  type TipInfo,
} from '../backend';
import { HeaderChain } from './headers';
import { HeaderSync, type HeaderSyncTimes } from './header-sync';
import { FilteredBlocks, mergeShares } from './filtered-blocks';
import { PeerFilters } from './peer-filters';
import { RoundTrips } from './round-trip';
import { TxRelay } from './tx-relay';
import { storedTip } from '../follower';

export interface SpvOptions {
  network: Network;
  peers: string[];
  checkpoint: { height: number; hash: string } | null;
  db: () => Promise<Db>;
  /** How long broadcast waits for a peer to show the tx in its mempool (docs/relay.md: 10 s). */
  acceptTimeoutMs?: number;
  /** Evidence channels a broadcast wants: short-lived probe connections make up for few peers (default 6). */
  mempoolChannels?: number;
  requestTimeoutMs?: number;
  /** The header sync's clock (header-sync.ts; 5 s ticks, 10 s and 30 s re-asks). */
  headerSyncTimes?: HeaderSyncTimes;
  /** The most elements one filter share holds (watch.ts's FILTER_SHARE_ELEMENTS by default). */
  filterShareElements?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SpvBackend implements ChainBackend {
  readonly name = 'spv' as const;
  readonly canLookupInputs = false;
  readonly ownsHeaderStore = true;
  private pool: PeerPool | null = null;
  private chain: HeaderChain | null = null;
  private active = false;
  private queue: Promise<unknown> = Promise.resolve();
  private fetchLock: Promise<unknown> = Promise.resolve();
  private stallTimer: ReturnType<typeof setInterval> | null = null;
  private headers: HeaderSync;
  private roundTrips = new RoundTrips();
  private filters: PeerFilters;
  private txs = new TxRelay();
  private filteredBlocks: FilteredBlocks;

  constructor(readonly opts: SpvOptions) {
    this.filters = new PeerFilters(opts.filterShareElements);
    this.headers = new HeaderSync(
      {
        chain: () => (this.active ? this.chain : null),
        readyPeers: () => this.pool?.readyPeers ?? [],
        ban: (p, reason) => this.pool?.ban(p, reason),
        serial: (fn) => this.serial(fn),
      },
      opts.headerSyncTimes,
    );
    this.filteredBlocks = new FilteredBlocks(
      {
        heightOf: async (hash) => (await this.chain?.get(hash))?.height ?? (await this.heightFromDb(hash)),
        mined: (txids) => this.txs.mined(txids),
      },
      this.roundTrips,
    );
  }

  // ---- lifecycle ----

  private ensurePool(): PeerPool {
    if (this.pool) return this.pool;
    const { network } = this.opts;
    this.pool = new PeerPool({
      magic: network.magic,
      peers: this.opts.peers,
      dnsSeeds: network.dnsSeeds,
      defaultPort: network.port,
      startHeight: () => this.chain?.tip.height ?? 0,
      maxBackoffMs: 5_000,
    });
    this.pool.on('ready', (p) => this.onReady(p));
    this.pool.on('message', (p, c, m) => this.onMessage(p, c, m));
    this.pool.on('close', (p) => this.onClose(p));
    this.pool.ensureConnections(this.filters.shareCount);
    void this.pool.start();
    return this.pool;
  }

  async start(): Promise<void> {
    if (this.active) return;
    const db = await this.opts.db();
    const chain = new HeaderChain(db, this.opts.network, this.opts.checkpoint);
    await chain.load();
    this.chain = chain;
    this.active = true;
    await this.refreshWatch().catch(() => undefined);
    const pool = this.ensurePool();
    for (const p of pool.readyPeers) this.onReady(p);
    this.stallTimer = setInterval(() => this.headers.tick(), this.headers.times.tickMs);
    log.info('spv node started', { tip: chain.tip.height, peers: this.opts.peers.length || 'dns seeds' });
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.pool?.stop();
    this.pool = null;
    this.roundTrips.endAll();
  }

  // ---- ChainBackend ----

  async tip(): Promise<TipInfo> {
    if (this.chain) return { height: this.chain.tip.height, hash: this.chain.tip.hash };
    const t = await storedTip(await this.opts.db());
    if (!t) throw new BackendUnavailableError('the spv node has not synced any headers yet');
    return t;
  }

  async blockHashAt(height: number): Promise<string | null> {
    if (this.chain) return this.chain.hashAt(height);
    const r = await (
      await this.opts.db()
    ).query<{ hash: string }>(`SELECT hash FROM chain_header WHERE in_best AND height = $1 LIMIT 1`, [height]);
    return r[0]?.hash ?? null;
  }

  async block(hash: string): Promise<BlockSummary> {
    return (await this.blocks([hash]))[0]!;
  }

  /** Filtered blocks (merkleblock + matched txs), proofs verified, in the order asked. */
  async blocks(hashes: string[]): Promise<BlockSummary[]> {
    const run = this.fetchLock.then(() => this.fetchBlocks(hashes));
    this.fetchLock = run.catch(() => undefined);
    return run;
  }

  async lookupInputs(_outpoints: Outpoint[]): Promise<InputLookup[]> {
    throw new Error('the spv backend cannot look up input values (canLookupInputs is false)');
  }

  /** A tx this backend broadcast: its facts from what the filter brought of its ancestors. */
  async mempoolTxFacts(raw: Uint8Array): Promise<TxFacts> {
    return this.txs.mempoolTxFacts(raw);
  }

  async inMempool(txid: string): Promise<boolean> {
    return this.txs.inMempool(txid);
  }

  async peers(): Promise<number> {
    return this.pool?.readyPeers.length ?? 0;
  }

  syncStatus(): SpvStatus {
    const peers = this.pool?.readyPeers ?? [];
    const peerHeight = this.headers.peerHeight(peers);
    const headerHeight = this.chain?.tip.height ?? 0;
    const synced = peers.length > 0 && this.headers.headersDone && headerHeight >= peerHeight;
    return { headerHeight, peerHeight, peers: peers.length, headersPerSec: this.headers.headersPerSec(), synced };
  }

  /**
   * Reload the bloom filters on every peer when the watch set changed, and keep a connection
   * for each share (a connection holds one filter: peer-filters.ts).
   */
  async refreshWatch(): Promise<boolean> {
    const changed = await this.filters.refresh(await this.opts.db(), this.pool?.readyPeers ?? [], () => this.txs.unseenBroadcasts());
    this.pool?.ensureConnections(this.filters.shareCount);
    return changed;
  }

  /**
   * Announce (inv), serve the peers' getdata, and wait for positive evidence that a peer holds
   * the tx in its mempool (broadcast.ts, docs/relay.md, docs/architecture.md#chain-backends). A `reject` or a conflicting
   * mempool tx is a result ({ok: false} with the reason); no evidence within acceptTimeoutMs
   * (10 s) throws BackendUnavailableError (the relay answers 503 and changes nothing).
   */
  async broadcast(txHex: string): Promise<BroadcastResult> {
    const raw = fromHex(txHex);
    const txid = hashToHex(sha256d(raw));
    const pool = this.ensurePool();
    const connecting = Date.now();
    while (!pool.readyPeers.length && Date.now() < connecting + 5_000) await sleep(100);
    if (!pool.readyPeers.length) throw new BackendUnavailableError('no P2P peers connected');
    return this.txs.broadcast(raw, txid, () => ({
      magic: this.opts.network.magic,
      peers: () => pool.readyPeers,
      filtered: this.filters.filtered,
      startHeight: () => this.chain?.tip.height ?? 0,
      deadline: Date.now() + (this.opts.acceptTimeoutMs ?? 10_000),
      channels: this.opts.mempoolChannels ?? 6,
    }));
  }

  /** The filter-matching mempool txs received since the last call (the worker's "seen in seconds"). */
  async mempoolNewTxs(): Promise<BlockTxSummary[]> {
    return this.txs.drain();
  }

  /** The worker is woken as each filtered tx arrives (docs/live.md), not at its next tick. */
  onMempoolTx(wake: () => void): () => void {
    return this.txs.onPush(wake);
  }

  takePushedTxs(): BlockTxSummary[] {
    return this.txs.drain();
  }

  // ---- P2P handling ----

  private onReady(p: Peer): void {
    this.filters.load(p, this.pool?.readyPeers ?? [], this.txs.unseenBroadcasts());
    this.headers.onReady(p);
  }

  private onClose(p: Peer): void {
    this.roundTrips.onClose(p);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const r = this.queue.then(fn);
    this.queue = r.catch((e) => log.warn('spv handler failed', { error: e as Error }));
    return r;
  }

  private onMessage(p: Peer, command: string, payload: Uint8Array): void {
    try {
      switch (command) {
        case 'headers':
          return void this.serial(() => this.headers.onHeaders(p, payload));
        case 'inv':
          return this.onInv(p, decodeInv(payload));
        case 'getdata':
          return this.txs.onGetData(p, decodeInv(payload));
        case 'merkleblock':
          return this.filteredBlocks.onMerkleBlock(payload);
        case 'tx':
          return this.onTx(payload);
        case 'notfound':
          return;
        case 'feefilter':
          p.feeFilter = decodeU64(payload);
          return;
        case 'reject':
          return this.txs.onReject(payload);
        case 'pong':
          return this.roundTrips.onPong(p, payload);
        default:
          return; // sendheaders, feefilter, addr, sendcmpct, getheaders…: nothing to do
      }
    } catch (e) {
      this.pool?.ban(p, `${command}: ${(e as Error).message}`);
    }
  }

  private onInv(p: Peer, items: InvItem[]): void {
    this.txs.onInv(p, items);
    if (items.some((i) => i.type === INV_BLOCK)) this.headers.askFrom(p); // a block we may not have: its headers
  }

  private onTx(payload: Uint8Array): void {
    const tx = parseTx(payload);
    const txid = hashToHex(sha256d(payload));
    if (!this.filteredBlocks.takeMatchedTx(txid, tx, payload)) this.txs.onMempoolTx(txid, tx, payload);
  }

  private async fetchBlocks(hashes: string[]): Promise<BlockSummary[]> {
    if (!hashes.length) return [];
    const pool = this.ensurePool();
    await this.refreshWatch().catch(() => undefined);
    // Each share's matches come from a peer holding it, the highest first; the block is their union.
    const byHeight = (a: Peer, b: Peer) => (b.remote?.startHeight ?? 0) - (a.remote?.startHeight ?? 0);
    const holders = this.filters.holders(pool.readyPeers.filter((p) => p.hasBloom));
    const parts: BlockSummary[][] = [];
    for (const [i, held] of holders.entries()) {
      const peer = [...held].sort(byHeight)[0];
      if (!peer) throw new BackendUnavailableError(`no P2P peer with bloom filters holds filter share ${i + 1} of ${holders.length}`);
      parts.push(await this.filteredBlocks.fetch(peer, hashes, this.opts.requestTimeoutMs ?? 30_000));
    }
    return parts.length === 1 ? parts[0]! : hashes.map((_, i) => mergeShares(parts.map((p) => p[i]!)));
  }

  private async heightFromDb(hash: string): Promise<number | null> {
    const r = await (await this.opts.db()).query<{ height: number }>(`SELECT height FROM chain_header WHERE hash = $1`, [hash]);
    return r[0]?.height ?? null;
  }
}
