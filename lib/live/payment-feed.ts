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

export function paymentEventStream(opts: FeedOptions): ReadableStream<Uint8Array> {
  const heartbeatMs = opts.heartbeatMs ?? FEED_DEFAULTS.heartbeatMs;
  const maxMs = opts.maxMs ?? FEED_DEFAULTS.maxMs;
  const maxErrors = opts.maxErrors ?? FEED_DEFAULTS.maxErrors;
  const [hub, id] = 'hub' in opts ? [opts.hub, opts.id] : [ownHub(opts, opts.now), 'payment'];
  const present = opts.present;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let lifetime: ReturnType<typeof setTimeout> | null = null;
  let unwatch: (() => void) | null = null;
  let closed = false;
  let onAbort: (() => void) | null = null;
  let counted = false;
  /** The latest state not yet queued (the client's queue was full). */
  let pending: Uint8Array | null = null;

  const stop = (reason = 'client_gone') => {
    if (counted) {
      openFeeds--;
      opts.onClose?.(reason);
    }
    counted = false;
    closed = true;
    pending = null;
    unwatch?.();
    unwatch = null;
    if (heartbeat) clearInterval(heartbeat);
    if (lifetime) clearTimeout(lifetime);
    heartbeat = lifetime = null;
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    onAbort = null;
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      openFeeds++;
      counted = true;
      const enqueue = (b: Uint8Array) => {
        try {
          controller.enqueue(b);
        } catch {
          stop(); // the consumer is gone
        }
      };
      const write = (s: string) => {
        if (!closed) enqueue(enc.encode(s));
      };
      const send = (b: Uint8Array) => {
        if (closed) return;
        if ((controller.desiredSize ?? 1) > 0) enqueue(b);
        else pending = b; // a slow client: keep only the latest state
      };
      const finish = (reason: string) => {
        if (closed) return;
        if (pending) enqueue(pending);
        write(sseEvent('end', { reason }));
        stop(reason);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      onAbort = () => {
        stop();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });

      let errors = 0;
      write(`retry: 1000\n\n`);
      heartbeat = setInterval(() => {
        if ((controller.desiredSize ?? 1) > 0) write(`: keep-alive\n\n`); // else data is queued anyway
      }, heartbeatMs);
      lifetime = setTimeout(() => finish('lifetime'), maxMs);
      unwatch = hub.watch(id, {
        view: (v) => send(present ? enc.encode(sseEvent('payment', present(v))) : paymentChunk(v)),
        checked: (final) => {
          errors = 0;
          if (final) finish('final');
        },
        gone: () => finish('not_found'),
        failed: () => {
          if (++errors >= maxErrors) finish('unavailable');
        },
      });
    },
    pull(controller) {
      if (pending && !closed) {
        const b = pending;
        pending = null;
        controller.enqueue(b);
      }
    },
    cancel() {
      stop();
    },
  });
}

/** The headers of every payment event stream: never cached or transformed, never buffered by a proxy (docs/live.md). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
