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
import { PeerPool } from '../../p2p/pool';
import type { Peer } from '../../p2p/peer';
import { INV_TX, decodeInv, encodeInv } from '../../p2p/wire';
import { log } from '../../log';
import { MempoolQueue } from '../mempool-queue';
import { summarizeTx } from '../tx-summary';

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

  constructor(private readonly opts: AnnouncementOptions) {}

  start(): void {
    if (this.pool) return;
    const pool = new PeerPool({
      magic: this.opts.magic, peers: [this.opts.peer], dnsSeeds: [], defaultPort: this.opts.defaultPort, maxPeers: 1,
      startHeight: () => 0, maxBackoffMs: 5_000, peer: { relay: true, userAgent: '/counter-rpc:0.1/' },
    });
    pool.on('message', (p, command, payload) => {
      try {
        if (command === 'inv') this.onInv(p, payload);
        else if (command === 'tx') this.onTx(payload);
      } catch (e) {
        pool.ban(p, `${command}: ${(e as Error).message}`);
      }
    });
    pool.on('ready', (p) => log.info('rpc: listening to the node\'s tx announcements', { peer: p.id }));
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
    const tx = summarizeTx(payload);
    this.asked.delete(tx.txid);
    this.received++;
    this.queue.push(tx);
  }
}
