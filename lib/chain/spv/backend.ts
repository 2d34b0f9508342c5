// The `spv` chain backend (docs/node.md#the-lightweight-node-chain_backendspv): a lightweight P2P node in the style of libdogecoin's
// spvnode. Headers-first sync from a checkpoint into chain_header (headers.ts; the P2P side
// in header-sync.ts), a BIP37 filter over the watch-only wallet (watch.ts), filtered
// blocks (merkleblock + tx, proofs verified), mempool txs relayed to us through the filter, and
// broadcast by inv/getdata, accepted on positive evidence only (broadcast.ts).
//
// start() makes this the active node (header sync and persistence: only the elected worker
// calls it). Without start(), e.g. in a web process with WORKER=off, broadcast()/inMempool()
// open the peer connections on demand and tip()/blockHashAt() read chain_header.
import type { Db } from '../../db';
import { hashToHex, sha256d, hexToHash, fromHex, type Network, parseMerkleBlock, verifyMerkleBlock, parseTx } from '../../doge';
import { shapeOfParsed, shapeOfRaw, txFacts, type TxFacts } from '../tx-facts';
import { RbfAncestry } from '../rbf-ancestry';
import {
  PeerPool,
  type Peer,
  INV_BLOCK,
  INV_FILTERED_BLOCK,
  INV_TX,
  decodeInv,
  decodeReject,
  decodeU64,
  encodeFilterAdd,
  encodeFilterLoad,
  encodeInv,
  encodeU64,
  randomNonce64,
  type InvItem,
} from '../../p2p';
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
import { announceAndAwait, newOutgoing, type Outgoing } from './broadcast';
import { buildFilter, fingerprint, loadWatchSet } from './watch';
import { storedTip } from '../follower';
import { MempoolQueue } from '../mempool-queue';

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
}

interface Pending {
  nonce: bigint;
  peer: Peer;
  resolve: () => void;
}

interface BlockCollect {
  want: Set<string>;
  got: Map<string, { summary: BlockSummary; matched: Map<string, number> }>; // matched: txid -> position in the block
  current: string | null;
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
  private pongs: Pending[] = [];
  private collect: BlockCollect | null = null;
  private filter: { fp: string; payload: Uint8Array } | null = null;
  private mempool = new Map<string, number>(); // txid -> first seen (ms)
  private loose = new MempoolQueue();
  /**
   * The unconfirmed txs the filter brought, replaceable or not. A parent never seen is taken as
   * replaceable: spv cannot tell a confirmed parent from one its filter did not match
   * (docs/security.md).
   */
  private ancestry = new RbfAncestry(() => true);
  private outgoing = new Map<string, Outgoing>();
  /** Peers that have our filter loaded (filteradd and mempool are only valid after filterload). */
  private filtered = new WeakSet<Peer>();
  private stallTimer: ReturnType<typeof setInterval> | null = null;
  private headers: HeaderSync;

  constructor(readonly opts: SpvOptions) {
    this.headers = new HeaderSync(
      {
        chain: () => (this.active ? this.chain : null),
        readyPeers: () => this.pool?.readyPeers ?? [],
        ban: (p, reason) => this.pool?.ban(p, reason),
        serial: (fn) => this.serial(fn),
      },
      opts.headerSyncTimes,
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
    for (const w of this.pongs) w.resolve();
    this.pongs = [];
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
    return this.ancestry.mempool([shapeOfRaw(raw)])[0]!;
  }

  async inMempool(txid: string): Promise<boolean> {
    return this.mempool.has(txid) || !!this.outgoing.get(txid)?.seen;
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

  /** Reload the bloom filter on every peer when the watch set changed. */
  async refreshWatch(): Promise<boolean> {
    const w = await loadWatchSet(await this.opts.db());
    const fp = fingerprint(w);
    if (this.filter?.fp === fp) return false;
    this.filter = { fp, payload: encodeFilterLoad(buildFilter(w)) };
    for (const p of this.pool?.readyPeers ?? []) this.loadFilter(p);
    return true;
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
    for (const [k, v] of this.outgoing) if (Date.now() - v.at > 3_600_000) this.outgoing.delete(k);
    const known = this.outgoing.get(txid);
    // A peer already announced it (a retry after a 503 whose evidence came late, or a tx the
    // wallet's own filter saw): that is the evidence.
    const seenAt = this.mempool.get(txid);
    if (known?.seen || (seenAt !== undefined && Date.now() - seenAt < 600_000)) return { ok: true, txid };
    const o = known ?? newOutgoing(raw);
    this.outgoing.set(txid, o);
    const r = await announceAndAwait(
      {
        magic: this.opts.network.magic,
        peers: () => pool.readyPeers,
        filtered: this.filtered,
        startHeight: () => this.chain?.tip.height ?? 0,
        deadline: Date.now() + (this.opts.acceptTimeoutMs ?? 10_000),
        channels: this.opts.mempoolChannels ?? 6,
      },
      txid,
      o,
    );
    if (r.ok) this.mempool.set(txid, Date.now());
    return r;
  }

  // ---- P2P handling ----

  private loadFilter(p: Peer): void {
    if (!this.filter || !p.hasBloom) return;
    p.send('filterload', this.filter.payload);
    this.filtered.add(p);
    // A broadcast still waiting for its evidence keeps its txid in the new filter.
    for (const [txid, o] of this.outgoing) if (!o.seen && Date.now() - o.at < 60_000) p.send('filteradd', encodeFilterAdd(hexToHash(txid)));
  }

  private onReady(p: Peer): void {
    this.loadFilter(p);
    this.headers.onReady(p);
  }

  private onClose(p: Peer): void {
    for (const w of this.pongs.filter((x) => x.peer === p)) w.resolve();
    this.pongs = this.pongs.filter((x) => x.peer !== p);
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
          return this.onGetData(p, decodeInv(payload));
        case 'merkleblock':
          return this.onMerkleBlock(p, payload);
        case 'tx':
          return this.onTx(payload);
        case 'notfound':
          return;
        case 'feefilter':
          p.feeFilter = decodeU64(payload);
          return;
        case 'reject': {
          const r = decodeReject(payload);
          const o = r.hash ? this.outgoing.get(r.hash) : undefined;
          if (o && !o.seen) {
            o.reject = `${r.reason} (code ${r.code})`;
            o.wake();
          }
          return;
        }
        case 'pong': {
          const nonce = decodeU64(payload);
          const i = this.pongs.findIndex((w) => w.peer === p && w.nonce === nonce);
          if (i >= 0) this.pongs.splice(i, 1)[0]!.resolve();
          return;
        }
        default:
          return; // sendheaders, feefilter, addr, sendcmpct, getheaders…: nothing to do
      }
    } catch (e) {
      this.pool?.ban(p, `${command}: ${(e as Error).message}`);
    }
  }

  private onInv(p: Peer, items: InvItem[]): void {
    for (const i of items) {
      const o = i.type === INV_TX ? this.outgoing.get(i.hash) : undefined;
      if (o) {
        // Ours, announced back: that peer holds it in its mempool.
        o.seen = true;
        o.wake();
        this.mempool.set(i.hash, Date.now());
      }
    }
    const want = items.filter((i) => i.type === INV_TX && !this.mempool.has(i.hash));
    if (want.length) p.send('getdata', encodeInv(want.slice(0, 1000)));
    if (items.some((i) => i.type === INV_BLOCK)) this.headers.askFrom(p); // a block we may not have: its headers
  }

  private onGetData(p: Peer, items: InvItem[]): void {
    const missing: InvItem[] = [];
    for (const i of items) {
      const o = i.type === INV_TX ? this.outgoing.get(i.hash) : undefined;
      if (!o) {
        missing.push(i);
        continue;
      }
      p.send('tx', o.raw);
      o.requestedBy.add(p.id);
    }
    if (missing.length) p.send('notfound', encodeInv(missing));
  }

  private onMerkleBlock(p: Peer, payload: Uint8Array): void {
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

  private onTx(payload: Uint8Array): void {
    const tx = parseTx(payload);
    const txid = hashToHex(sha256d(payload));
    const c = this.collect;
    const cur = c?.current ? c.got.get(c.current) : undefined;
    if (cur && cur.matched.has(txid)) {
      if (!cur.summary.txs.some((t) => t.txid === txid))
        cur.summary.txs.push(txFacts({ ...shapeOfParsed(txid, tx, payload), index: cur.matched.get(txid) }, 'mined'));
      return;
    }
    if (this.mempool.size > 50_000) this.mempool.clear();
    if (!this.mempool.has(txid)) this.mempool.set(txid, Date.now());
    this.loose.push(this.ancestry.mempool([shapeOfParsed(txid, tx, payload)])[0]!); // a plain-wallet payment, seen in seconds
  }

  /** The filter-matching mempool txs received since the last call (the worker's "seen in seconds"). */
  async mempoolNewTxs(): Promise<BlockTxSummary[]> {
    return this.loose.drain();
  }

  /** The worker is woken as each filtered tx arrives (docs/live.md), not at its next tick. */
  onMempoolTx(wake: () => void): () => void {
    return this.loose.onPush(wake);
  }

  takePushedTxs(): BlockTxSummary[] {
    return this.loose.drain();
  }

  /** Ping and wait for the matching pong: every message the peer sent before is processed. */
  private roundTrip(p: Peer, timeoutMs: number): Promise<void> {
    const nonce = randomNonce64();
    return new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        this.pongs = this.pongs.filter((w) => w.nonce !== nonce);
        reject(new BackendUnavailableError(`peer ${p.id} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pongs.push({
        nonce,
        peer: p,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      });
      p.send('ping', encodeU64(nonce));
    });
  }

  private async fetchBlocks(hashes: string[]): Promise<BlockSummary[]> {
    if (!hashes.length) return [];
    const pool = this.ensurePool();
    await this.refreshWatch().catch(() => undefined);
    const peer = pool.readyPeers.filter((p) => p.hasBloom).sort((a, b) => (b.remote?.startHeight ?? 0) - (a.remote?.startHeight ?? 0))[0];
    if (!peer) throw new BackendUnavailableError('no P2P peer with bloom filters connected');
    const c: BlockCollect = { want: new Set(hashes), got: new Map(), current: null };
    this.collect = c;
    try {
      peer.send('getdata', encodeInv(hashes.map((h) => ({ type: INV_FILTERED_BLOCK, hash: h }))));
      await this.roundTrip(peer, this.opts.requestTimeoutMs ?? 30_000);
    } finally {
      this.collect = null;
    }
    const out: BlockSummary[] = [];
    for (const h of hashes) {
      const b = c.got.get(h);
      if (!b) throw new BackendUnavailableError(`peer ${peer.id} did not send block ${h}`);
      if (b.summary.txs.length !== b.matched.size)
        throw new BackendUnavailableError(`peer ${peer.id} sent ${b.summary.txs.length} of ${b.matched.size} matched txs of ${h}`);
      const node = await this.chain?.get(h);
      const height = node?.height ?? (await this.heightFromDb(h));
      if (height === null) throw new BackendUnavailableError(`block ${h} is not in the header chain`);
      for (const t of b.summary.txs) this.mempool.delete(t.txid);
      this.ancestry.mined(b.summary.txs.map((t) => t.txid));
      b.summary.txs.sort((x, y) => (x.index ?? 0) - (y.index ?? 0)); // block order
      // Only the matched txs are known: the sizes count the header and those (README).
      const totalTxSize = b.summary.txs.reduce((n, t) => n + (t.raw?.length ?? 0), 0);
      out.push({ ...b.summary, height, totalTxSize, size: 80 + totalTxSize });
    }
    return out;
  }

  private async heightFromDb(hash: string): Promise<number | null> {
    const r = await (await this.opts.db()).query<{ height: number }>(`SELECT height FROM chain_header WHERE hash = $1`, [hash]);
    return r[0]?.height ?? null;
  }
}
