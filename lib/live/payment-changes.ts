// The process's one subscription per notification channel (docs/live.md): for payments, the database announces every
// committed change of a payment row on the channel `payment_changed` (a trigger, migration
// 20261127150000_payment_changed_notify), and this fans the ids out to the subscribers (the feed
// hubs). Ids that arrive together are handed over together, once each, a macrotask later, so a
// burst of commits (a block confirming many payments) costs each hub one round.
//
// After each (re)connection of the listening connection every subscriber is told to resync: a
// notification sent while it was down is lost, and a full re-read replaces it.
import { type Db, perDb } from '../db';
import { log } from '../log';

export const PAYMENT_CHANNEL = 'payment_changed';

export interface ChangeSubscriber {
  /** These payments changed (committed). */
  changed(ids: ReadonlySet<string>): void;
  /** Notifications may have been lost (a reconnect): re-read everything watched. */
  resync(): void;
}

export interface ChangeFeed {
  /** Starts listening on first use; returns the function that unsubscribes. */
  subscribe(s: ChangeSubscriber): () => void;
  /** True while notifications are being received. */
  readonly live: boolean;
}

class ChannelChanges implements ChangeFeed {
  private readonly subs = new Set<ChangeSubscriber>();
  private pending = new Set<string>();
  private flushQueued = false;
  private started = false;
  private connected = false;
  /** Notifications received (for tests and the benchmark's cost figures). */
  received = 0;

  constructor(
    private readonly db: Db,
    private readonly channel: string,
  ) {}

  get live(): boolean {
    return this.connected;
  }

  subscribe(s: ChangeSubscriber): () => void {
    this.subs.add(s);
    this.start();
    return () => void this.subs.delete(s);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    // Listening stays on for the life of the database handle (closing it ends the LISTEN).
    this.db
      .listen(this.channel, {
        notify: (id) => this.onNotify(id),
        connected: () => {
          const again = this.connected === false && this.received > 0;
          this.connected = true;
          if (again) log.info('notifications connected again; streams re-read', { channel: this.channel });
          for (const s of this.subs) s.resync();
        },
        disconnected: (error) => {
          if (this.connected) log.warn('notifications lost their connection; reconnecting', { channel: this.channel, error });
          this.connected = false;
        },
      })
      .catch((error) => {
        // Only a bad channel name throws here; the safety poll still serves the streams.
        log.error('cannot listen for notifications', { channel: this.channel, error: error as Error });
      });
  }

  private onNotify(id: string): void {
    this.received++;
    this.pending.add(id);
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      const ids = this.pending;
      this.pending = new Set();
      for (const s of this.subs) s.changed(ids);
    });
  }
}

const feeds = perDb(() => new Map<string, ChannelChanges>());

/** The change feed of one channel of this database handle (one LISTEN per process, database and channel). */
export function channelChanges(db: Db, channel: string): ChangeFeed & { received: number } {
  const m = feeds(db);
  let f = m.get(channel);
  if (!f) m.set(channel, (f = new ChannelChanges(db, channel)));
  return f;
}

/** The payment change feed of this database handle. */
export const paymentChanges = (db: Db): ChangeFeed & { received: number } => channelChanges(db, PAYMENT_CHANNEL);
