// The rpc backend's P2P side (docs/live.md): one connection to the same node, which announces
// each tx entering its mempool with `inv`; the tx is fetched with `getdata` on the same
// connection and queued for the chain worker, which is woken at once. A plain-wallet payment is
// then seen as the node accepts it, instead of at the next `getrawmempool` diff (once a tick),
// which stays as the safety net: it still finds every tx this connection missed (down,
// reconnecting, announcements delayed).
//
// The cost grows with the network's tx rate, not the mempool's size: one `inv` entry, one
// `getdata` and one tx parse per new tx. Dogecoin Core sends tx announcements to an inbound
// peer after a random delay (Poisson, 5 s on average) unless the peer is whitelisted
// (`-whitelist=<the app's address>`); docs/live.md says how to set it up.
import { PeerPool, type Peer, INV_TX, decodeInv, encodeInv } from '../../p2p';
import { log } from '../../log';
import { MempoolQueue } from '../mempool-queue';
import { shapeOfRaw, type TxFacts, type TxShape } from '../tx-facts';

export interface AnnouncementOptions {
  magic: string;
  /** host:port of the node's P2P listener. */
  peer: string;
  defaultPort: number;
}

/** Txids asked for and not yet received, at most (a peer that never answers cannot grow it). */
const MAX_ASKED = 20_000;

export class TxAnnouncements {
  readonly queue = new MempoolQueue();
  private pool: PeerPool | null = null;
  private readonly asked = new Set<string>();
  /** Txs received over P2P (for the benchmark's cost figures). */
  received = 0;

  /** Txs received and waiting for their ancestors' RBF signals (tx-facts.ts), sent as one batch. */
  private pending: TxShape[] = [];

  constructor(
    private readonly opts: AnnouncementOptions,
    private readonly facts: (txs: TxShape[]) => Promise<TxFacts[]>,
  ) {}

  start(): void {
    if (this.pool) return;
    const pool = new PeerPool({
      magic: this.opts.magic,
      peers: [this.opts.peer],
      dnsSeeds: [],
      defaultPort: this.opts.defaultPort,
      maxPeers: 1,
      startHeight: () => 0,
      maxBackoffMs: 5_000,
      peer: { relay: true, userAgent: '/counter-rpc:0.1/' },
    });
    pool.on('message', (p, command, payload) => {
      try {
        if (command === 'inv') this.onInv(p, payload);
        else if (command === 'tx') this.onTx(payload);
      } catch (e) {
        pool.ban(p, `${command}: ${(e as Error).message}`);
      }
    });
    pool.on('ready', (p) => log.info("rpc: listening to the node's tx announcements", { peer: p.id }));
    this.pool = pool;
    void pool.start();
  }

  stop(): void {
    this.pool?.stop();
    this.pool = null;
    this.asked.clear();
  }

  get connected(): boolean {
    return (this.pool?.readyPeers.length ?? 0) > 0;
  }

  private onInv(p: Peer, payload: Uint8Array): void {
    const want = decodeInv(payload).filter((i) => i.type === INV_TX && !this.queue.has(i.hash) && !this.asked.has(i.hash));
    if (!want.length) return;
    if (this.asked.size + want.length > MAX_ASKED) this.asked.clear();
    for (const i of want) this.asked.add(i.hash);
    p.send('getdata', encodeInv(want.slice(0, 50_000)));
  }

  private onTx(payload: Uint8Array): void {
    const tx = shapeOfRaw(payload);
    this.received++;
    this.pending.push(tx);
    if (this.pending.length === 1) setImmediate(() => void this.flush());
  }

  /**
   * The txs received meanwhile, with their RBF signals (the node lists their ancestors), to the
   * queue. If the node cannot be asked they are left to the getrawmempool diff, which finds them.
   */
  private async flush(): Promise<void> {
    const txs = this.pending;
    this.pending = [];
    try {
      for (const f of await this.facts(txs)) this.queue.push(f);
    } catch (e) {
      log.warn('rpc: announced txs left to the mempool diff (their ancestors could not be read)', { txs: txs.length, error: e as Error });
    } finally {
      for (const t of txs) this.asked.delete(t.txid);
    }
  }
}
