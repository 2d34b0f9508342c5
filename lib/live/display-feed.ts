// The live stream of one customer's display (GET /api/display/events, docs/counter.md): a
// `display` event with the terminal's cart and, while the till charges, the payment's
// customer-facing state, each time either changes; an `unpaired` event (then the end) when the
// display is unpaired or its terminal revoked. The cart comes from the display hub
// (lib/live/display-hub.ts) and the payment from the same payment feed hub the till's own
// stream uses (lib/live/payment-feed-db.ts): both are fed by database notifications, so an
// open display costs no query of its own. Heartbeats keep proxies from closing it; a bounded
// lifetime makes the browser's EventSource reconnect now and then.
import type { Db } from '../db/client';
import { displayPayment, storedCart, type DisplayPayment, type DisplayState } from '../display/view';
import type { PairedDisplay } from '../display/pairing';
import { displayHub } from './display-hub';
import { paymentFeedHub } from './payment-feed-db';
import { FEED_DEFAULTS, sseEvent } from './payment-feed';

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

const enc = new TextEncoder();
/** Failed rounds in a row before the stream gives up (the browser reconnects). */
const MAX_ERRORS = 20;

export function displayEventStream(opts: DisplayFeedOptions): ReadableStream<Uint8Array> {
  const { db, display } = opts;
  const payments = paymentFeedHub(db, opts.publicUrl);
  let state: DisplayState = { cart: null, payment: null };
  let paymentId: string | null = null;
  let unwatchPayment: (() => void) | null = null;
  let unwatchCart: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let lifetime: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  let pending: Uint8Array | null = null;
  let onAbort: (() => void) | null = null;

  const stop = (reason: string) => {
    if (closed) return;
    closed = true;
    pending = null;
    unwatchCart?.();
    unwatchPayment?.();
    unwatchCart = unwatchPayment = null;
    if (heartbeat) clearInterval(heartbeat);
    if (lifetime) clearTimeout(lifetime);
    heartbeat = lifetime = null;
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    opts.onClose?.(reason);
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const enqueue = (b: Uint8Array) => {
        try {
          controller.enqueue(b);
        } catch {
          stop('client_gone');
        }
      };
      const send = () => {
        if (closed) return;
        const b = enc.encode(sseEvent('display', state));
        if ((controller.desiredSize ?? 1) > 0) enqueue(b);
        else pending = b; // a slow client gets the latest state only
      };
      const finish = (reason: string, event?: string) => {
        if (closed) return;
        if (event) enqueue(enc.encode(sseEvent(event, { reason })));
        stop(reason);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      const follow = (id: string | null) => {
        if (id === paymentId) return;
        unwatchPayment?.();
        unwatchPayment = null;
        paymentId = id;
        state = { ...state, payment: null };
        if (!id) return;
        unwatchPayment = payments.watch(id, {
          view: (v) => {
            state = { ...state, payment: displayPayment(v) as DisplayPayment };
            send();
          },
          checked: () => undefined,
          gone: () => {
            state = { ...state, payment: null };
            send();
          },
          failed: () => undefined,
        });
      };
      onAbort = () => finish('client_gone');
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });

      enqueue(enc.encode('retry: 1000\n\n'));
      heartbeat = setInterval(() => {
        if ((controller.desiredSize ?? 1) > 0) enqueue(enc.encode(': keep-alive\n\n'));
      }, opts.heartbeatMs ?? FEED_DEFAULTS.heartbeatMs);
      lifetime = setTimeout(() => finish('lifetime', 'end'), opts.maxMs ?? FEED_DEFAULTS.maxMs);
      let errors = 0;
      unwatchCart = displayHub(db).watch(display.terminalId, {
        row: (r) => {
          errors = 0;
          if (r.revoked || !r.displays.includes(display.id)) return finish('unpaired', 'unpaired');
          const cart = storedCart(r.cart);
          follow(cart?.payment_id ?? null);
          if (cart) {
            const { payment_id: _omit, ...shown } = cart;
            void _omit;
            state = { ...state, cart: shown };
          } else state = { ...state, cart: null };
          send();
        },
        gone: () => finish('unpaired', 'unpaired'),
        failed: () => {
          if (++errors >= MAX_ERRORS) finish('unavailable', 'end');
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
      stop('client_gone');
    },
  });
}
