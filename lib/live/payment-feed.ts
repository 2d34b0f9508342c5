// The live update feed for one payment (GET /api/v1/payments/<id>/events, docs/api.md#live-updates):
// a Server-Sent Events stream built on web streams only (no framework imports). It sends the
// current view at once, then a new `payment` event whenever the stored payment changes, as
// seen by the process's shared feed hub (lib/live/feed-hub.ts: web processes learn of changes
// only through the database, by its notifications, and one hub serves every stream, §16). Heartbeat comments keep
// proxies from closing an idle stream. The stream ends with an `end` event when the payment is
// final, after a bounded lifetime (the browser's EventSource reconnects), or when the client
// goes away; every timer is cleared and the watch dropped then.
//
// Memory per stream is bounded: a client that reads slowly is not queued every state; while
// its queue is full only the latest state waits (intermediate ones are dropped), and heartbeats
// are skipped.
import { FeedHub } from './feed-hub';
import type { FeedProbe } from './feed-probe';

export { isExpiredProbe, isFinalProbe, probeFingerprint, type FeedProbe } from './feed-probe';

type View = Record<string, unknown>;

/** Where the stream's states come from: a shared hub, or (tests, one-offs) its own reads. */
type FeedSourceOptions =
  | { hub: FeedHub<View>; id: string }
  | {
      /** Reads the probe row, or null when the payment is gone. */
      probe(): Promise<FeedProbe | null>;
      /** Reads the full view sent to the client (the vendor payment body). */
      view(): Promise<View | null>;
      pollMs?: number;
    };

export type FeedOptions = FeedSourceOptions & {
  /** Aborted when the client disconnects. */
  signal?: AbortSignal;
  heartbeatMs?: number;
  /** Maximum lifetime of one connection. */
  maxMs?: number;
  /** Consecutive failed reads before the stream gives up (the client reconnects). */
  maxErrors?: number;
  now?: () => Date;
  /** Called once when the stream stops: final, lifetime, unavailable, not_found or client_gone. */
  onClose?: (reason: string) => void;
  /**
   * What of each view the client is sent (default: all of it, the vendor's body). The public
   * checkout stream sends only the customer's fields (lib/checkout/state.ts).
   */
  present?: (v: View) => View;
};

export const FEED_DEFAULTS = { pollMs: 300, heartbeatMs: 15_000, maxMs: 10 * 60_000, maxErrors: 20 } as const;

/** Streams open in this process (every source). */
let openFeeds = 0;
export const openFeedCount = () => openFeeds;

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const enc = new TextEncoder();
/** A view object is shared by every stream of its payment in a round: encode it once. */
const encoded = new WeakMap<View, Uint8Array>();
function paymentChunk(v: View): Uint8Array {
  let b = encoded.get(v);
  if (!b) encoded.set(v, (b = enc.encode(sseEvent('payment', v))));
  return b;
}

/** A hub of its own for a stream given probe()/view() reads. */
function ownHub(opts: Extract<FeedSourceOptions, { probe: unknown }>, now?: () => Date): FeedHub<View> {
  return new FeedHub<View>({
    probes: async (ids) => {
      const p = await opts.probe();
      return new Map(p && ids.length ? [[ids[0], p]] : []);
    },
    views: async (ids) => {
      const v = await opts.view();
      return new Map(v && ids.length ? [[ids[0], v]] : []);
    },
  }, { pollMs: opts.pollMs ?? FEED_DEFAULTS.pollMs, now });
}

type Controller = ReadableStreamDefaultController<Uint8Array>;

function closeQuietly(controller: Controller): void {
  try {
    controller.close();
  } catch {
    /* already closed */
  }
}

/**
 * One client's stream: what it holds (timers, the hub watch, the abort listener, its place in
 * openFeeds) and the one place that releases all of it, `stop`, whichever way the stream ends.
 */
class FeedStream {
  private readonly heartbeatMs: number;
  private readonly maxMs: number;
  private readonly maxErrors: number;
  private readonly hub: FeedHub<View>;
  private readonly id: string;
  private controller!: Controller;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lifetime: ReturnType<typeof setTimeout> | null = null;
  private unwatch: (() => void) | null = null;
  private onAbort: (() => void) | null = null;
  private closed = false;
  private counted = false;
  /** Failed reads in a row; a successful check resets it. */
  private errors = 0;
  /** The latest state not yet queued (the client's queue was full). */
  private pending: Uint8Array | null = null;

  constructor(private readonly opts: FeedOptions) {
    this.heartbeatMs = opts.heartbeatMs ?? FEED_DEFAULTS.heartbeatMs;
    this.maxMs = opts.maxMs ?? FEED_DEFAULTS.maxMs;
    this.maxErrors = opts.maxErrors ?? FEED_DEFAULTS.maxErrors;
    [this.hub, this.id] = 'hub' in opts ? [opts.hub, opts.id] : [ownHub(opts, opts.now), 'payment'];
  }

  start(controller: Controller): void {
    this.controller = controller;
    openFeeds++;
    this.counted = true;
    // A client already gone gets nothing: no timers, no watch.
    if (!this.listenForAbort()) return;
    this.write(`retry: 1000\n\n`);
    this.heartbeat = setInterval(() => {
      if ((controller.desiredSize ?? 1) > 0) this.write(`: keep-alive\n\n`); // else data is queued anyway
    }, this.heartbeatMs);
    this.lifetime = setTimeout(() => this.finish('lifetime'), this.maxMs);
    this.unwatch = this.hub.watch(this.id, {
      view: (v) => this.send(this.opts.present ? enc.encode(sseEvent('payment', this.opts.present(v))) : paymentChunk(v)),
      checked: (final) => {
        this.errors = 0;
        if (final) this.finish('final');
      },
      gone: () => this.finish('not_found'),
      failed: () => {
        if (++this.errors >= this.maxErrors) this.finish('unavailable');
      },
    });
  }

  /** The client asks for more: the state held back while its queue was full goes now. */
  pull(controller: Controller): void {
    if (this.pending && !this.closed) {
      const b = this.pending;
      this.pending = null;
      controller.enqueue(b);
    }
  }

  stop(reason = 'client_gone'): void {
    if (this.counted) {
      openFeeds--;
      this.opts.onClose?.(reason);
    }
    this.counted = false;
    this.closed = true;
    this.pending = null;
    this.unwatch?.();
    this.unwatch = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.lifetime) clearTimeout(this.lifetime);
    this.heartbeat = this.lifetime = null;
    if (this.onAbort) this.opts.signal?.removeEventListener('abort', this.onAbort);
    this.onAbort = null;
  }

  /** Ends the stream when the client disconnects; false when it already has. */
  private listenForAbort(): boolean {
    this.onAbort = () => {
      this.stop();
      closeQuietly(this.controller);
    };
    if (this.opts.signal?.aborted) {
      this.onAbort();
      return false;
    }
    this.opts.signal?.addEventListener('abort', this.onAbort, { once: true });
    return true;
  }

  private enqueue(b: Uint8Array): void {
    try {
      this.controller.enqueue(b);
    } catch {
      this.stop(); // the consumer is gone
    }
  }

  private write(s: string): void {
    if (!this.closed) this.enqueue(enc.encode(s));
  }

  /** A state for the client; a slow client (full queue) keeps only the latest one. */
  private send(b: Uint8Array): void {
    if (this.closed) return;
    if ((this.controller.desiredSize ?? 1) > 0) this.enqueue(b);
    else this.pending = b;
  }

  /** Ends the stream with an `end` event, after the state held back for a slow client. */
  private finish(reason: string): void {
    if (this.closed) return;
    if (this.pending) this.enqueue(this.pending);
    this.write(sseEvent('end', { reason }));
    this.stop(reason);
    closeQuietly(this.controller);
  }
}

export function paymentEventStream(opts: FeedOptions): ReadableStream<Uint8Array> {
  const feed = new FeedStream(opts);
  return new ReadableStream<Uint8Array>({
    start: (controller) => feed.start(controller),
    pull: (controller) => feed.pull(controller),
    cancel: () => feed.stop(),
  });
}

/** The headers of every payment event stream: never cached or transformed, never buffered by a proxy (docs/live.md). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
