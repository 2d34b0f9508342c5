// The live update feed for one payment (GET /api/v1/payments/<id>/events, DESIGN.md §5):
// a Server-Sent Events stream built on web streams only (no framework imports). It sends the
// current view at once, then a new `payment` event whenever the stored payment changes, as
// seen by polling the database (web processes learn of changes only through it). Heartbeat
// comments keep proxies from closing an idle stream. The stream ends with an `end` event when
// the payment is final, after a bounded lifetime (the browser's EventSource reconnects), or
// when the client goes away; every timer is cleared then.

/** The cheap per-poll snapshot of a payment: enough to notice every visible change. */
export interface FeedProbe {
  status: string;
  confirmations: number;
  txid: string | null;
  broadcastState: string;
  updatedAt: Date;
  expiresAt: Date;
}

export interface FeedOptions {
  /** Reads the probe row, or null when the payment is gone. */
  probe(): Promise<FeedProbe | null>;
  /** Reads the full view sent to the client (the vendor payment body). */
  view(): Promise<Record<string, unknown> | null>;
  /** Aborted when the client disconnects. */
  signal?: AbortSignal;
  pollMs?: number;
  heartbeatMs?: number;
  /** Maximum lifetime of one connection. */
  maxMs?: number;
  /** Consecutive failed polls before the stream gives up (the client reconnects). */
  maxErrors?: number;
  now?: () => Date;
  /** Called once when the stream stops: final, lifetime, unavailable, not_found or client_gone. */
  onClose?: (reason: string) => void;
}

export const FEED_DEFAULTS = { pollMs: 300, heartbeatMs: 15_000, maxMs: 10 * 60_000, maxErrors: 20 } as const;

/** Streams open in this process; the route refuses new ones (503) beyond MAX_OPEN_FEEDS. */
export const MAX_OPEN_FEEDS = 1000;
let openFeeds = 0;
export const openFeedCount = () => openFeeds;

/** Unpaid with nothing in flight and past its expiry: nothing more will happen at the counter. */
export function isExpiredProbe(p: Pick<FeedProbe, 'status' | 'broadcastState' | 'expiresAt'>, now: Date): boolean {
  return p.status === 'unpaid' && p.broadcastState === 'none' && now.getTime() >= p.expiresAt.getTime();
}

/** confirmed, declined (which includes cancelled) or expired. */
export function isFinalProbe(p: FeedProbe, now: Date): boolean {
  return p.status === 'confirmed' || p.status === 'declined' || isExpiredProbe(p, now);
}

export function probeFingerprint(p: FeedProbe, now: Date): string {
  return [p.status, p.confirmations, p.txid ?? '', p.broadcastState, p.updatedAt.getTime(), isExpiredProbe(p, now) ? 'x' : ''].join('|');
}

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function paymentEventStream(opts: FeedOptions): ReadableStream<Uint8Array> {
  const pollMs = opts.pollMs ?? FEED_DEFAULTS.pollMs;
  const heartbeatMs = opts.heartbeatMs ?? FEED_DEFAULTS.heartbeatMs;
  const maxMs = opts.maxMs ?? FEED_DEFAULTS.maxMs;
  const maxErrors = opts.maxErrors ?? FEED_DEFAULTS.maxErrors;
  const now = opts.now ?? (() => new Date());
  const enc = new TextEncoder();
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let lifetime: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  let onAbort: (() => void) | null = null;
  let counted = false;

  const stopTimers = (reason = 'client_gone') => {
    if (counted) {
      openFeeds--;
      opts.onClose?.(reason);
    }
    counted = false;
    closed = true;
    if (pollTimer) clearTimeout(pollTimer);
    if (heartbeat) clearInterval(heartbeat);
    if (lifetime) clearTimeout(lifetime);
    pollTimer = heartbeat = lifetime = null;
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    onAbort = null;
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      openFeeds++;
      counted = true;
      const write = (s: string) => {
        if (closed) return;
        try {
          controller.enqueue(enc.encode(s));
        } catch {
          stopTimers(); // the consumer is gone
        }
      };
      const finish = (reason: string) => {
        if (closed) return;
        write(sseEvent('end', { reason }));
        stopTimers(reason);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      onAbort = () => {
        stopTimers();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });

      let last = '';
      let errors = 0;
      const tick = async () => {
        pollTimer = null;
        if (closed) return;
        try {
          const p = await opts.probe();
          if (closed) return;
          if (!p) return finish('not_found');
          const t = now();
          const fp = probeFingerprint(p, t);
          if (fp !== last) {
            const v = await opts.view();
            if (closed) return;
            if (!v) return finish('not_found');
            last = fp;
            write(sseEvent('payment', v));
          }
          errors = 0;
          if (isFinalProbe(p, t)) return finish('final');
        } catch {
          if (++errors >= maxErrors) return finish('unavailable');
        }
        if (!closed) pollTimer = setTimeout(tick, pollMs);
      };

      write(`retry: 1000\n\n`);
      heartbeat = setInterval(() => write(`: keep-alive\n\n`), heartbeatMs);
      lifetime = setTimeout(() => finish('lifetime'), maxMs);
      void tick();
    },
    cancel() {
      stopTimers();
    },
  });
}
