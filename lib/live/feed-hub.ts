// The one keyed change hub behind the live update streams (docs/live.md,
// docs/architecture.md#processes): one per process and source, whatever the number of open
// streams. It serves the payment feeds (the till's, the checkout page's, the display's payment;
// keyed by payment id) and the customer displays' carts (keyed by terminal id,
// lib/live/display-hub.ts). A round reads the cheap probe rows of the keys it is asked about in
// one query (`id IN (…)`, in chunks), loads the full views only of the keys whose state changed
// for some watcher (a source whose probe is its view returns it without a query), and hands each
// watcher what is new for it. The database is the only source of truth, so changes made by
// another process (the worker, another web process) are seen like local ones.
//
// What starts a round:
// - a notification (lib/live/payment-changes.ts): the payments it names that are watched are
//   read at once; this is the live path, a few milliseconds after the change commits;
// - a new watcher: served at once by a round of its own (new watchers arriving together share one);
// - a payment's expiry (expired is a matter of time, not of a write): a timer at the earliest one;
//   (a source whose keys never expire has no timer);
// - a (re)connection of the notification channel, and the slow safety poll (`pollMs`, 10 s for
//   the payment hub): every watched payment. These bound what a lost notification can cost.
// Rounds never overlap; when a full round takes longer than the poll interval, the next one
// waits as long as it took. With nobody watching, no timer runs and no query is made.
import { isFinalProbe, probeFingerprint, type FeedProbe } from './feed-probe';
import type { ChangeFeed } from './payment-changes';

/** How a key's probe reads: the fingerprint of its state, whether it is final, and its expiry. */
export interface ProbeState {
  fp: string;
  final: boolean;
  /** When the key's state changes by time alone (ms), or null. */
  expiresAt: number | null;
}

export interface FeedSource<V, P = FeedProbe> {
  /** The probe rows of these keys; a key missing from the map is gone. */
  probes(ids: readonly string[]): Promise<Map<string, P>>;
  /** The full views of these keys (the body sent to the client), given the probes just read. */
  views(ids: readonly string[], probes: ReadonlyMap<string, P>): Promise<Map<string, V>>;
  /** How a probe reads (a payment's: paymentProbeState). */
  state(p: P, now: Date): ProbeState;
}

/** A payment's probe: unpaid and not yet expired, it changes at its expiry. */
export function paymentProbeState(p: FeedProbe, now: Date): ProbeState {
  const at = p.expiresAt.getTime();
  return { fp: probeFingerprint(p, now), final: isFinalProbe(p, now), expiresAt: p.status === 'unpaid' && at > now.getTime() ? at : null };
}

/** What one stream is told by the hub. Calls may unwatch synchronously. */
export interface FeedWatcher<V> {
  /** The key's state changed since this watcher last saw it (or it has seen nothing yet). */
  view(v: V): void;
  /** A round read this key; `final` when nothing more will happen to it. */
  checked(final: boolean): void;
  /** The key no longer exists. */
  gone(): void;
  /** A round failed (the database is unreachable, …). */
  failed(error: unknown): void;
}

export interface FeedHubOptions {
  /** Full rounds at this interval (without `changes`, the only way to learn of a change). */
  pollMs?: number;
  now?: () => Date;
  /** Notifications of changed payments: watched ones are read at once. */
  changes?: ChangeFeed;
}

interface Entry<V> {
  id: string;
  w: FeedWatcher<V>;
  /** Fingerprint of the last state delivered; '' before the first. */
  fp: string;
  active: boolean;
}

export const FEED_POLL_MS = 300;
/** The safety poll of a hub fed by notifications (it only bounds what a lost one costs). */
export const FEED_SAFETY_POLL_MS = 10_000;
/** After a payment's expiry, when its watchers are told (the clocks of database and process differ slightly). */
const EXPIRY_SLACK_MS = 50;

export class FeedHub<V, P = FeedProbe> {
  private readonly byId = new Map<string, Set<Entry<V>>>();
  /** Payments with a watcher that has not been served yet. */
  private readonly fresh = new Set<string>();
  private count = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private kickPending = false;
  private running = false;
  private fullDue = false;
  private lastRoundMs = 0;
  /** The last round failed: the next full round comes after FEED_POLL_MS, not the safety poll's interval. */
  private failing = false;
  private rounds = 0;
  /** Watched payments that will expire unless something happens first: id -> expiry (ms). */
  private readonly expiries = new Map<string, number>();
  private expiryTimer: ReturnType<typeof setTimeout> | null = null;
  private expiryAt = Infinity;
  private unsubscribe: (() => void) | null = null;
  readonly pollMs: number;
  private readonly now: () => Date;
  private readonly changes: ChangeFeed | undefined;

  constructor(
    private readonly source: FeedSource<V, P>,
    opts: FeedHubOptions = {},
  ) {
    this.changes = opts.changes;
    this.pollMs = opts.pollMs ?? (this.changes ? FEED_SAFETY_POLL_MS : FEED_POLL_MS);
    this.now = opts.now ?? (() => new Date());
  }

  /** These payments changed: their watchers are served by a round now. */
  changed(ids: Iterable<string>): void {
    let any = false;
    for (const id of ids) {
      if (!this.byId.has(id)) continue;
      this.fresh.add(id);
      any = true;
    }
    if (any) this.kick();
  }

  /** Every watched payment is read again soon (notifications may have been lost). */
  resync(): void {
    if (this.count === 0) return;
    this.fullDue = true;
    this.kick();
  }

  /** Watchers currently subscribed. */
  get watchers(): number {
    return this.count;
  }

  /** Rounds run so far (each is one probe query per chunk, plus a view query when something changed). */
  get roundCount(): number {
    return this.rounds;
  }

  /** Starts watching payment `id`; returns the function that stops it (idempotent). */
  watch(id: string, w: FeedWatcher<V>): () => void {
    const e: Entry<V> = { id, w, fp: '', active: true };
    let set = this.byId.get(id);
    if (!set) this.byId.set(id, (set = new Set()));
    set.add(e);
    this.count++;
    if (this.changes && !this.unsubscribe)
      this.unsubscribe = this.changes.subscribe({ changed: (ids) => this.changed(ids), resync: () => this.resync() });
    this.fresh.add(id);
    this.kick();
    this.arm();
    return () => this.unwatch(e);
  }

  private unwatch(e: Entry<V>): void {
    if (!e.active) return;
    e.active = false;
    this.count--;
    const set = this.byId.get(e.id);
    set?.delete(e);
    if (set && set.size === 0) {
      this.byId.delete(e.id);
      this.fresh.delete(e.id);
      this.expiries.delete(e.id);
    }
    if (this.count === 0) {
      if (this.timer) clearTimeout(this.timer);
      if (this.expiryTimer) clearTimeout(this.expiryTimer);
      this.timer = this.expiryTimer = null;
      this.expiryAt = Infinity;
    }
  }

  /** Serves new watchers soon: a microtask later, so that watchers added together share a round. */
  private kick(): void {
    if (this.kickPending || this.running) return; // a running round loops while `fresh` is not empty
    this.kickPending = true;
    setImmediate(() => {
      this.kickPending = false;
      void this.run();
    });
  }

  private arm(): void {
    if (this.timer || this.count === 0) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.fullDue = true;
        void this.run();
      },
      Math.max(this.failing ? Math.min(this.pollMs, FEED_POLL_MS) : this.pollMs, this.lastRoundMs),
    );
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.count > 0 && (this.fullDue || this.fresh.size > 0)) {
        const full = this.fullDue;
        this.fullDue = false;
        const t = performance.now();
        await this.round(full);
        if (full) this.lastRoundMs = performance.now() - t;
      }
    } finally {
      this.running = false;
      this.arm();
      this.armExpiry();
    }
  }

  /** One timer, at the earliest expiry among the watched payments. */
  private armExpiry(): void {
    let next = Infinity;
    for (const at of this.expiries.values()) if (at < next) next = at;
    if (next === this.expiryAt) return;
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    this.expiryAt = next;
    if (next === Infinity || this.count === 0) return;
    this.expiryTimer = setTimeout(
      () => {
        this.expiryTimer = null;
        this.expiryAt = Infinity;
        const now = this.now().getTime();
        const due: string[] = [];
        for (const [id, at] of this.expiries) if (at <= now) due.push(id);
        for (const id of due) this.expiries.delete(id);
        this.changed(due);
        this.armExpiry();
      },
      Math.min(2 ** 31 - 1, Math.max(0, next - this.now().getTime()) + EXPIRY_SLACK_MS),
    );
  }

  /** One round: every watched payment (full) or only those with unserved watchers. */
  private async round(full: boolean): Promise<void> {
    this.rounds++;
    const ids = full ? [...this.byId.keys()] : [...this.fresh];
    for (const id of ids) this.fresh.delete(id);
    if (ids.length === 0) return;
    // Only the watchers present now are served by this round; later ones are fresh again.
    const targets = new Map<string, Entry<V>[]>();
    for (const id of ids) {
      const set = this.byId.get(id);
      if (set) targets.set(id, [...set]);
    }
    let probes: Map<string, P>;
    let views = new Map<string, V>();
    const need: string[] = [];
    const states = new Map<string, ProbeState>();
    const t = this.now();
    try {
      probes = await this.source.probes(ids);
      for (const [id, entries] of targets) {
        const p = probes.get(id);
        if (!p) continue;
        const st = this.source.state(p, t);
        states.set(id, st);
        // Past its expiry yet not final (a broadcast in flight): the write that ends it is announced.
        if (st.expiresAt !== null) this.expiries.set(id, st.expiresAt);
        else this.expiries.delete(id);
        if (entries.some((e) => e.active && e.fp !== st.fp)) need.push(id);
      }
      if (need.length > 0) views = await this.source.views(need, probes);
    } catch (err) {
      for (const entries of targets.values()) {
        for (const e of entries) if (e.active) e.w.failed(err);
      }
      // Unserved watchers are served by the next full round, not retried at once; while rounds
      // fail it comes at the old poll's pace, so a stream gives up (maxErrors) in seconds and the
      // till says its status is unknown (docs/live.md).
      this.failing = true;
      if (this.timer) clearTimeout(this.timer); // re-armed at that pace when the round ends
      this.timer = null;
      return;
    }
    this.failing = false;
    for (const [id, entries] of targets) {
      const st = states.get(id);
      const v = views.get(id);
      for (const e of entries) {
        if (!e.active) continue;
        if (!st) {
          e.w.gone();
          continue;
        }
        const fp = st.fp;
        if (e.fp !== fp) {
          if (v === undefined) {
            e.w.gone(); // the row vanished between the two reads
            continue;
          }
          e.fp = fp;
          e.w.view(v);
          if (!e.active) continue;
        }
        e.w.checked(st.final);
      }
    }
  }
}
