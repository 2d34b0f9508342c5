// The mechanics every Server-Sent Events stream of Counter shares (docs/live.md): the `retry`
// line, heartbeat comments that keep proxies from closing an idle stream (skipped while the
// client's queue is full: data is queued anyway), a bounded lifetime (the browser's EventSource
// reconnects), the client's disconnect, and one `stop` that releases everything whichever way
// the stream ends. What a stream watches and sends is its subclass's (lib/live/payment-feed.ts,
// lib/live/display-feed.ts).
//
// Memory per stream is bounded: a client that reads slowly is not queued every state; while its
// queue is full only the latest state waits (intermediate ones are dropped).

export type SseController = ReadableStreamDefaultController<Uint8Array>;

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const sseEncoder = new TextEncoder();
/** Sent as they are by every stream: encoded once. */
const RETRY = sseEncoder.encode('retry: 1000\n\n');
const KEEP_ALIVE = sseEncoder.encode(': keep-alive\n\n');

export const SSE_DEFAULTS = { heartbeatMs: 15_000, maxMs: 10 * 60_000 } as const;

export interface SseStreamOptions {
  /** Aborted when the client disconnects. */
  signal?: AbortSignal;
  heartbeatMs?: number;
  /** Maximum lifetime of one connection. */
  maxMs?: number;
  /** Called once when the stream stops, with its reason. */
  onClose?: (reason: string) => void;
}

function closeQuietly(controller: SseController): void {
  try {
    controller.close();
  } catch {
    /* already closed */
  }
}

/**
 * One client's stream: its timers, the abort listener and what the subclass watches (`watch`,
 * released by `release`), and the one place that releases all of it, `stop`.
 */
export abstract class SseStream {
  protected controller!: SseController;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lifetime: ReturnType<typeof setTimeout> | null = null;
  private onAbort: (() => void) | null = null;
  private closed = false;
  /** The latest state not yet queued (the client's queue was full). */
  private pending: Uint8Array | null = null;

  /** `flushOnFinish`: whether the state held back for a slow client still goes before the closing event. */
  constructor(
    private readonly sse: SseStreamOptions,
    private readonly flushOnFinish: boolean,
  ) {}

  /** Starts watching what the stream reports; called once, after the retry line. */
  protected abstract watch(): void;
  /** Releases what `watch` (or the subclass's start) holds; called once, when the stream stops. */
  protected abstract release(): void;
  /** Called at the start, before anything else (also for a client already gone). */
  protected opened(): void {}

  start(controller: SseController): void {
    this.controller = controller;
    this.opened();
    // A client already gone gets nothing: no timers, no watch.
    if (!this.listenForAbort()) return;
    this.enqueue(RETRY);
    this.heartbeat = setInterval(() => {
      if ((controller.desiredSize ?? 1) > 0) this.enqueue(KEEP_ALIVE);
    }, this.sse.heartbeatMs ?? SSE_DEFAULTS.heartbeatMs);
    this.lifetime = setTimeout(() => this.finish('lifetime'), this.sse.maxMs ?? SSE_DEFAULTS.maxMs);
    this.watch();
  }

  /** The client asks for more: the state held back while its queue was full goes now. */
  pull(controller: SseController): void {
    if (this.pending && !this.closed) {
      const b = this.pending;
      this.pending = null;
      controller.enqueue(b);
    }
  }

  stop(reason = 'client_gone'): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = null;
    this.release();
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.lifetime) clearTimeout(this.lifetime);
    this.heartbeat = this.lifetime = null;
    if (this.onAbort) this.sse.signal?.removeEventListener('abort', this.onAbort);
    this.onAbort = null;
    this.sse.onClose?.(reason);
  }

  /** Ends the stream when the client disconnects; false when it already has. */
  private listenForAbort(): boolean {
    this.onAbort = () => {
      this.stop();
      closeQuietly(this.controller);
    };
    if (this.sse.signal?.aborted) {
      this.onAbort();
      return false;
    }
    this.sse.signal?.addEventListener('abort', this.onAbort, { once: true });
    return true;
  }

  private enqueue(b: Uint8Array): void {
    try {
      this.controller.enqueue(b);
    } catch {
      this.stop(); // the consumer is gone
    }
  }

  /** A state for the client; a slow client (full queue) keeps only the latest one. */
  protected send(b: Uint8Array): void {
    if (this.closed) return;
    if ((this.controller.desiredSize ?? 1) > 0) this.enqueue(b);
    else this.pending = b;
  }

  /** Ends the stream with an `event` (default `end`) carrying the reason, then closes it. */
  protected finish(reason: string, event = 'end'): void {
    if (this.closed) return;
    if (this.pending && this.flushOnFinish) this.enqueue(this.pending);
    if (!this.closed) this.enqueue(sseEncoder.encode(sseEvent(event, { reason })));
    this.stop(reason);
    closeQuietly(this.controller);
  }
}

/** The web stream a client reads from `s`. */
export function sseReadable(s: SseStream): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start: (controller) => s.start(controller),
    pull: (controller) => s.pull(controller),
    cancel: () => s.stop(),
  });
}

/** The headers of every event stream: never cached or transformed, never buffered by a proxy (docs/live.md). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
