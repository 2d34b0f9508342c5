// The shared reader behind the customer displays' streams (docs/live.md, docs/counter.md): one
// per process, keyed by terminal, whatever the number of open displays. The database announces
// every change a display must learn of on `display_changed` (a published cart, a display paired
// or unpaired, a revoked terminal: migration 20261128120000_customer_display). A round reads the
// rows of the changed terminals that someone here watches in one query and hands each watcher
// the row when it differs from what it last saw. New watchers arriving together share a round;
// a (re)connection of the channel and a slow safety poll re-read every watched terminal, in one
// query. With nobody watching, nothing is read: the cost is per change, never per display.
import type { Db } from '../db/client';
import { perDb } from '../db/per-db';
import { displayRows, type DisplayRow } from '../display/cart';
import { channelChanges, type ChangeFeed } from './payment-changes';
import { FEED_SAFETY_POLL_MS } from './feed-hub';

export const DISPLAY_CHANNEL = 'display_changed';

export interface DisplayWatcher {
  /** The terminal's row changed since this watcher last saw it (or it saw nothing yet). */
  row(r: DisplayRow): void;
  /** The terminal no longer exists. */
  gone(): void;
  /** A round failed (the database is unreachable, …). */
  failed(error: unknown): void;
}

interface Entry {
  w: DisplayWatcher;
  fp: string;
  active: boolean;
}

export type DisplayRowSource = (terminalIds: readonly string[]) => Promise<Map<string, DisplayRow>>;

export class DisplayHub {
  private readonly byTerminal = new Map<string, Set<Entry>>();
  private readonly fresh = new Set<string>();
  private fullDue = false;
  private running = false;
  private kickPending = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  private count = 0;
  private rounds = 0;

  constructor(
    private readonly read: DisplayRowSource,
    private readonly changes?: ChangeFeed,
    readonly pollMs = FEED_SAFETY_POLL_MS,
  ) {}

  get watchers(): number {
    return this.count;
  }

  /** Rounds run so far (each is one read). */
  get roundCount(): number {
    return this.rounds;
  }

  /** Starts following a terminal; returns the function that stops it (idempotent). */
  watch(terminalId: string, w: DisplayWatcher): () => void {
    const e: Entry = { w, fp: '', active: true };
    let set = this.byTerminal.get(terminalId);
    if (!set) this.byTerminal.set(terminalId, (set = new Set()));
    set.add(e);
    this.count++;
    if (this.changes && !this.unsubscribe) {
      this.unsubscribe = this.changes.subscribe({ changed: (ids) => this.changed(ids), resync: () => this.resync() });
    }
    this.fresh.add(terminalId);
    this.kick();
    this.arm();
    return () => {
      if (!e.active) return;
      e.active = false;
      this.count--;
      set.delete(e);
      if (set.size === 0) {
        this.byTerminal.delete(terminalId);
        this.fresh.delete(terminalId);
      }
      if (this.count === 0 && this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
    };
  }

  /** These terminals changed: their watchers are served by a round now. */
  changed(ids: Iterable<string>): void {
    let any = false;
    for (const id of ids) {
      if (!this.byTerminal.has(id)) continue;
      this.fresh.add(id);
      any = true;
    }
    if (any) this.kick();
  }

  /** Every watched terminal is read again (notifications may have been lost). */
  resync(): void {
    if (this.count === 0) return;
    this.fullDue = true;
    this.kick();
  }

  private kick(): void {
    if (this.kickPending || this.running) return;
    this.kickPending = true;
    setImmediate(() => {
      this.kickPending = false;
      void this.run();
    });
  }

  private arm(): void {
    if (this.timer || this.count === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.resync();
    }, this.pollMs);
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.count > 0 && (this.fullDue || this.fresh.size > 0)) {
        const full = this.fullDue;
        this.fullDue = false;
        await this.round(full ? [...this.byTerminal.keys()] : [...this.fresh]);
      }
    } finally {
      this.running = false;
      this.arm();
    }
  }

  private async round(ids: string[]): Promise<void> {
    for (const id of ids) this.fresh.delete(id);
    if (ids.length === 0) return;
    this.rounds++;
    const targets = ids.map((id) => [id, [...(this.byTerminal.get(id) ?? [])]] as const);
    let rows: Map<string, DisplayRow>;
    try {
      rows = await this.read(ids);
    } catch (err) {
      for (const [, entries] of targets) for (const e of entries) if (e.active) e.w.failed(err);
      return;
    }
    for (const [id, entries] of targets) {
      const r = rows.get(id);
      const fp = r ? JSON.stringify(r) : '';
      for (const e of entries) {
        if (!e.active) continue;
        if (!r) e.w.gone();
        else if (e.fp !== fp) {
          e.fp = fp;
          e.w.row(r);
        }
      }
    }
  }
}

const hubs = perDb((db) => new DisplayHub((ids) => displayRows(db, ids), channelChanges(db, DISPLAY_CHANNEL)));

/** The process's shared display hub for this database. */
export const displayHub = (db: Db): DisplayHub => hubs(db);
