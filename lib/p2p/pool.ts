// Several peers at once: fixed addresses (DOGE_PEERS) or DNS seeds plus addr gossip; reconnect
// with exponential backoff; ban addresses that misbehave.
import { EventEmitter } from 'node:events';
import { resolve4 } from 'node:dns/promises';
import { Peer, type PeerOptions } from './peer';
import { decodeAddr } from './wire';
import { log } from '../log';

export interface PoolOptions {
  magic: string;
  /** host:port list; empty means DNS seeds. */
  peers: string[];
  dnsSeeds: readonly string[];
  defaultPort: number;
  maxPeers?: number;
  startHeight: () => number;
  banMs?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  peer?: Partial<PeerOptions>;
}

export interface PoolEvents {
  ready: [peer: Peer];
  message: [peer: Peer, command: string, payload: Uint8Array];
  close: [peer: Peer, reason: string];
}

interface Slot {
  /** host:port: several slots may dial one address (ensureConnections). */
  addr: string;
  peer: Peer | null;
  failures: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export function splitHostPort(s: string, dflt: number): { host: string; port: number } {
  const m = /^\[(.+)\]:(\d+)$/.exec(s) ?? /^([^:]+):(\d+)$/.exec(s);
  return m ? { host: m[1]!, port: Number(m[2]) } : { host: s.replace(/^\[|\]$/g, ''), port: dflt };
}

export class PeerPool extends EventEmitter<PoolEvents> {
  private slots = new Map<string, Slot>();
  private banned = new Map<string, number>();
  private candidates = new Set<string>();
  private running = false;
  private refill: ReturnType<typeof setInterval> | null = null;
  /** The connections wanted at least (ensureConnections); the pool's own maxPeers otherwise. */
  private wanted = 0;

  constructor(readonly opts: PoolOptions) {
    super();
  }

  get readyPeers(): Peer[] {
    return [...this.slots.values()].map((s) => s.peer).filter((p): p is Peer => !!p && p.ready);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (this.opts.peers.length) this.openWanted();
    else {
      await this.seed();
      this.fill();
    }
    this.refill = setInterval(() => {
      if (!this.opts.peers.length) void this.seed().then(() => this.fill());
    }, 60_000);
  }

  stop(): void {
    this.running = false;
    if (this.refill) clearInterval(this.refill);
    for (const s of this.slots.values()) {
      if (s.timer) clearTimeout(s.timer);
      s.peer?.close('pool stopped');
    }
    this.slots.clear();
  }

  /**
   * Keep at least `count` connections. The spv node wants one per filter share (a connection
   * holds one BIP37 filter), so with fixed peers (DOGE_PEERS) it opens several connections to
   * each address, dealt evenly; with DNS seeds it raises how many candidates it dials.
   */
  ensureConnections(count: number): void {
    if (count <= this.wanted) return;
    this.wanted = count;
    if (this.running) this.openWanted();
  }

  /** Opens the slots `wanted` calls for that are not open yet: fixed peers dealt evenly, or DNS candidates. */
  private openWanted(): void {
    if (!this.opts.peers.length) return this.fill();
    const perAddress = Math.max(1, Math.ceil(this.wanted / this.opts.peers.length));
    for (const p of this.opts.peers) for (let i = 0; i < perAddress; i++) this.addSlot(p, i === 0 ? p : `${p}#${i + 1}`);
  }

  /** Ban an address (protocol violation, invalid headers, bad proofs). */
  ban(peer: Peer, reason: string): void {
    log.warn('banning peer', { peer: peer.id, reason });
    this.banned.set(peer.id, Date.now() + (this.opts.banMs ?? 10 * 60_000));
    peer.close(`banned: ${reason}`);
  }

  isBanned(addr: string): boolean {
    const until = this.banned.get(addr);
    if (until === undefined) return false;
    if (until < Date.now()) {
      this.banned.delete(addr);
      return false;
    }
    return true;
  }

  private async seed(): Promise<void> {
    for (const seed of this.opts.dnsSeeds) {
      try {
        for (const ip of await resolve4(seed)) this.candidates.add(`${ip}:${this.opts.defaultPort}`);
      } catch (e) {
        log.warn('DNS seed failed', { host: seed, error: (e as Error).message });
      }
    }
  }

  private fill(): void {
    const max = Math.max(this.opts.maxPeers ?? 8, this.wanted);
    for (const c of this.candidates) {
      if (this.slots.size >= max) break;
      if (!this.slots.has(c) && !this.isBanned(c)) this.addSlot(c);
    }
  }

  private addSlot(addr: string, key = addr): void {
    if (this.slots.has(key)) return;
    const slot: Slot = { addr, peer: null, failures: 0, timer: null };
    this.slots.set(key, slot);
    this.dial(slot);
  }

  private dial(slot: Slot): void {
    if (!this.running) return;
    slot.timer = null;
    if (this.isBanned(slot.addr)) return this.retry(slot, this.banned.get(slot.addr)! - Date.now());
    const { host, port } = splitHostPort(slot.addr, this.opts.defaultPort);
    const peer = new Peer({ ...this.opts.peer, host, port, magic: this.opts.magic, startHeight: this.opts.startHeight });
    slot.peer = peer;
    peer.on('ready', () => {
      slot.failures = 0;
      log.info('peer connected', { peer: peer.id, agent: peer.remote?.userAgent, height: peer.remote?.startHeight });
      this.emit('ready', peer);
    });
    peer.on('message', (command, payload) => {
      if (command === 'addr' && !this.opts.peers.length) {
        try {
          for (const a of decodeAddr(payload))
            if (this.candidates.size < 1000 && !a.host.startsWith('[')) this.candidates.add(`${a.host}:${a.port}`);
        } catch {
          return this.ban(peer, 'malformed addr');
        }
      }
      this.emit('message', peer, command, payload);
    });
    peer.on('close', (reason, misbehaving) => {
      if (misbehaving) {
        log.warn('peer misbehaved', { peer: peer.id, reason });
        this.banned.set(peer.id, Date.now() + (this.opts.banMs ?? 10 * 60_000));
      }
      slot.peer = null;
      this.emit('close', peer, reason);
      if (!this.running) return;
      slot.failures++;
      const min = this.opts.minBackoffMs ?? 500;
      const delay = Math.min(this.opts.maxBackoffMs ?? 30_000, min * 2 ** Math.min(slot.failures - 1, 10));
      this.retry(slot, delay * (0.75 + Math.random() * 0.5));
    });
    peer.connect();
  }

  private retry(slot: Slot, ms: number): void {
    if (!this.running || slot.timer) return;
    slot.timer = setTimeout(() => this.dial(slot), Math.max(50, ms));
  }
}
