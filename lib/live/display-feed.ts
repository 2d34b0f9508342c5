// The live stream of one customer's display (GET /api/display/events, docs/counter.md): a
// `display` event with the terminal's cart and, while the till charges, the payment's
// customer-facing state, each time either changes; an `unpaired` event (then the end) when the
// display is unpaired or its terminal revoked. The cart comes from the display hub
// (lib/live/display-hub.ts) and the payment from the same payment feed hub the till's own
// stream uses (lib/live/payment-feed-db.ts): both are fed by database notifications, so an
// open display costs no query of its own. Heartbeats keep proxies from closing it; a bounded
// lifetime makes the browser's EventSource reconnect now and then.
import type { Db } from '../db';
import {
  displayPayment,
  storedCart,
  type DisplayPayment,
  type DisplayState,
  type PairedDisplay,
  storedTipWait,
  tipScreen,
} from '../display';
import { displayHub } from './display-hub';
import { paymentFeedHub } from './payment-feed-db';
import { SseStream, sseEncoder, sseEvent, sseReadable } from './sse-stream';

export interface DisplayFeedOptions {
  db: Db;
  publicUrl: string;
  display: PairedDisplay;
  signal?: AbortSignal;
  heartbeatMs?: number;
  maxMs?: number;
  /** Called once when the stream stops: unpaired, lifetime, unavailable or client_gone. */
  onClose?: (reason: string) => void;
}

/** Failed rounds in a row before the stream gives up (the browser reconnects). */
const MAX_ERRORS = 20;

/** One display's stream: the display hub watch and the followed payment, over the shared SSE mechanics (lib/live/sse-stream.ts). */
class DisplayStream extends SseStream {
  private readonly payments: ReturnType<typeof paymentFeedHub>;
  private state: DisplayState = { cart: null, payment: null, tip: null };
  private paymentId: string | null = null;
  private unwatchPayment: (() => void) | null = null;
  private unwatchCart: (() => void) | null = null;
  /** Failed rounds in a row; a row read resets it. */
  private errors = 0;

  constructor(private readonly opts: DisplayFeedOptions) {
    super(opts, false);
    this.payments = paymentFeedHub(opts.db, opts.publicUrl);
  }

  protected watch(): void {
    const { display } = this.opts;
    this.unwatchCart = displayHub(this.opts.db).watch(display.terminalId, {
      row: (r) => {
        this.errors = 0;
        if (r.revoked || !r.displays.includes(display.id)) return this.finish('unpaired', 'unpaired');
        const cart = storedCart(r.cart);
        this.follow(cart?.payment_id ?? null);
        if (cart) {
          const { payment_id: _omit, ...shown } = cart;
          void _omit;
          this.state = { ...this.state, cart: shown };
        } else this.state = { ...this.state, cart: null };
        const wait = storedTipWait(r.tip);
        this.state = { ...this.state, tip: wait ? tipScreen(wait) : null };
        this.sendState();
      },
      gone: () => this.finish('unpaired', 'unpaired'),
      failed: () => {
        if (++this.errors >= MAX_ERRORS) this.finish('unavailable');
      },
    });
  }

  protected release(): void {
    this.unwatchCart?.();
    this.unwatchPayment?.();
    this.unwatchCart = this.unwatchPayment = null;
  }

  private sendState(): void {
    this.send(sseEncoder.encode(sseEvent('display', this.state)));
  }

  /** Follows the payment the cart is being charged by (or none), in place of the one before. */
  private follow(id: string | null): void {
    if (id === this.paymentId) return;
    this.unwatchPayment?.();
    this.unwatchPayment = null;
    this.paymentId = id;
    this.state = { ...this.state, payment: null };
    if (!id) return;
    this.unwatchPayment = this.payments.watch(id, {
      view: (v) => {
        this.state = { ...this.state, payment: displayPayment(v) as DisplayPayment };
        this.sendState();
      },
      checked: () => undefined,
      gone: () => {
        this.state = { ...this.state, payment: null };
        this.sendState();
      },
      failed: () => undefined,
    });
  }
}

export function displayEventStream(opts: DisplayFeedOptions): ReadableStream<Uint8Array> {
  return sseReadable(new DisplayStream(opts));
}
