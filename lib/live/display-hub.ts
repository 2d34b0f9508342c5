// The customer displays' carts on the one keyed change hub (lib/live/feed-hub.ts), keyed by
// terminal (docs/live.md, docs/counter.md): one per process, whatever the number of open
// displays. The database announces every change a display must learn of on `display_changed`
// (a published cart, a display paired or unpaired, a revoked terminal: migration
// 20261128120000_customer_display). A round reads the rows of the changed terminals that someone
// here watches in one query and hands each watcher the row when it differs from what it last
// saw; the row is its own view, so no second query. New watchers arriving together share a
// round; a (re)connection of the channel and a slow safety poll re-read every watched terminal,
// and after a failed round the hub retries at the feeds' pace, as it does for payments. With
// nobody watching, nothing is read: the cost is per change, never per display.
import { type Db, perDb } from '../db';
import { displayRows, type DisplayRow } from '../display';
import { channelChanges, type ChangeFeed } from './payment-changes';
import { FEED_SAFETY_POLL_MS, FeedHub, type ProbeState } from './feed-hub';

export const DISPLAY_CHANNEL = 'display_changed';

export interface DisplayWatcher {
  /** The terminal's row changed since this watcher last saw it (or it saw nothing yet). */
  row(r: DisplayRow): void;
  /** The terminal no longer exists. */
  gone(): void;
  /** A round failed (the database is unreachable, …). */
  failed(error: unknown): void;
}

export type DisplayRowSource = (terminalIds: readonly string[]) => Promise<Map<string, DisplayRow>>;

/** A terminal's row: its fingerprint is the row itself; it never becomes final nor expires. */
const rowState = (r: DisplayRow): ProbeState => ({ fp: JSON.stringify(r), final: false, expiresAt: null });

export class DisplayHub {
  private readonly hub: FeedHub<DisplayRow, DisplayRow>;

  constructor(read: DisplayRowSource, changes?: ChangeFeed, pollMs = FEED_SAFETY_POLL_MS) {
    this.hub = new FeedHub<DisplayRow, DisplayRow>(
      {
        probes: read,
        views: async (ids, rows) => new Map(ids.flatMap((id) => (rows.has(id) ? [[id, rows.get(id)!]] : []))),
        state: rowState,
      },
      { changes, pollMs },
    );
  }

  get watchers(): number {
    return this.hub.watchers;
  }

  /** Rounds run so far (each is one read). */
  get roundCount(): number {
    return this.hub.roundCount;
  }

  /** Starts following a terminal; returns the function that stops it (idempotent). */
  watch(terminalId: string, w: DisplayWatcher): () => void {
    return this.hub.watch(terminalId, { view: (r) => w.row(r), checked: () => {}, gone: () => w.gone(), failed: (e) => w.failed(e) });
  }

  /** These terminals changed: their watchers are served by a round now. */
  changed(ids: Iterable<string>): void {
    this.hub.changed(ids);
  }

  /** Every watched terminal is read again (notifications may have been lost). */
  resync(): void {
    this.hub.resync();
  }
}

const hubs = perDb((db) => new DisplayHub((ids) => displayRows(db, ids), channelChanges(db, DISPLAY_CHANNEL)));

/** The process's shared display hub for this database. */
export const displayHub = (db: Db): DisplayHub => hubs(db);
