// The live update feed for one payment (GET /api/v1/payments/<id>/events, docs/api.md#live-updates):
// a Server-Sent Events stream built on web streams only (no framework imports). It sends the
// current view at once, then a new `payment` event whenever the stored payment changes, as
// seen by the process's shared feed hub (lib/live/feed-hub.ts: web processes learn of changes
// only through the database, by its notifications, and one hub serves every stream: docs/live.md#from-a-state-change-to-the-screens). Heartbeat comments keep
// proxies from closing an idle stream. The stream ends with an `end` event when the payment is
// final, after a bounded lifetime (the browser's EventSource reconnects), or when the client
// goes away; every timer is cleared and the watch dropped then.
//
// Memory per stream is bounded: a client that reads slowly is not queued every state; while
// its queue is full only the latest state waits (intermediate ones are dropped), and heartbeats
// are skipped.
import { FeedHub, paymentProbeState } from './feed-hub';
import type { FeedProbe } from './feed-probe';
import { SSE_DEFAULTS, SSE_HEADERS, SseStream, sseEncoder, sseEvent, sseReadable } from './sse-stream';

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

export const FEED_DEFAULTS = { pollMs: 300, ...SSE_DEFAULTS, maxErrors: 20 } as const;

/** Streams open in this process (every source). */
let openFeeds = 0;
export const openFeedCount = () => openFeeds;

const enc = sseEncoder;
/** A view object is shared by every stream of its payment in a round: encode it once. */
const encoded = new WeakMap<View, Uint8Array>();
function paymentChunk(v: View): Uint8Array {
  let b = encoded.get(v);
  if (!b) encoded.set(v, (b = enc.encode(sseEvent('payment', v))));
  return b;
}

/** A hub of its own for a stream given probe()/view() reads. */
function ownHub(opts: Extract<FeedSourceOptions, { probe: unknown }>, now?: () => Date): FeedHub<View> {
  return new FeedHub<View>(
    {
      probes: async (ids) => {
        const p = await opts.probe();
        return new Map(p && ids.length ? [[ids[0], p]] : []);
      },
      views: async (ids) => {
        const v = await opts.view();
        return new Map(v && ids.length ? [[ids[0], v]] : []);
      },
      state: paymentProbeState,
    },
    { pollMs: opts.pollMs ?? FEED_DEFAULTS.pollMs, now },
  );
}

/**
 * One client's payment stream: the hub watch and its place in openFeeds, over the shared SSE
 * mechanics (lib/live/sse-stream.ts).
 */
class FeedStream extends SseStream {
  private readonly maxErrors: number;
  private readonly hub: FeedHub<View>;
  private readonly id: string;
  private unwatch: (() => void) | null = null;
  private counted = false;
  /** Failed reads in a row; a successful check resets it. */
  private errors = 0;

  constructor(private readonly opts: FeedOptions) {
    super(opts, true);
    this.maxErrors = opts.maxErrors ?? FEED_DEFAULTS.maxErrors;
    [this.hub, this.id] = 'hub' in opts ? [opts.hub, opts.id] : [ownHub(opts, opts.now), 'payment'];
  }

  protected opened(): void {
    openFeeds++;
    this.counted = true;
  }

  protected watch(): void {
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

  protected release(): void {
    if (this.counted) openFeeds--;
    this.counted = false;
    this.unwatch?.();
    this.unwatch = null;
  }
}

export function paymentEventStream(opts: FeedOptions): ReadableStream<Uint8Array> {
  return sseReadable(new FeedStream(opts));
}

export { sseEvent, SSE_HEADERS };
