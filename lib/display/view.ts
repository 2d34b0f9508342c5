// What a customer's display is told (docs/counter.md#the-customers-display), and nothing more.
// Pure and browser-safe: the server builds these from the till's published cart and the
// payment's vendor view; the display page renders them.
//
// The cart is the till's own (its lines and totals in the store's pricing currency, minor
// units as decimal strings). A payment is reduced to what the customer needs to pay it and to
// see it paid: the amount, the QR code's URIs and the form the till's rule opens on
// (lib/connect/qr-form.ts), the lines' names, counts and totals, and the live fields of the
// checkout page (lib/checkout/state.ts). No staff name, decision note, refund or other sale.
import { z } from 'zod';
import { isPrintable, UNPRINTABLE_MESSAGE } from '../text';
import { preferredQrForm, type QrForm } from '../connect';
import { checkoutLive, type CheckoutLive } from '../checkout';
import type { TipScreen } from './tip';

const minor = z.string().regex(/^-?\d{1,20}$/, 'must be an integer amount in minor units');
// Shown on a screen: printable text only, by the rule the store's own text follows.
const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => isPrintable(s), UNPRINTABLE_MESSAGE);

export const ADJUSTMENT_KINDS = ['tax', 'fee', 'shipping', 'discount', 'tip'] as const;
export const MAX_DISPLAY_LINES = 200;

/** The body of PUT /api/pos/display/cart. */
export const DisplayCartSchema = z
  .object({
    currency: z.string().regex(/^[A-Z]{3,5}$/, 'must be a currency code'),
    lines: z
      .array(
        z
          .object({
            name: text(200),
            count: z.number().int().min(1).max(1_000_000),
            total: minor,
          })
          .strict(),
      )
      .max(MAX_DISPLAY_LINES),
    adjustments: z.array(z.object({ kind: z.enum(ADJUSTMENT_KINDS), amount: minor }).strict()).max(ADJUSTMENT_KINDS.length),
    total: minor,
    /** The payment being charged (one of this till's sales), or null while the cart is built. */
    payment_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a payment id')
      .nullable(),
  })
  .strict();

export type DisplayCart = z.infer<typeof DisplayCartSchema>;

export interface DisplayPayment {
  id: string;
  /** DOGE, 8-DP string. */
  total: string;
  uri: string;
  connect_uri: string;
  /** The form the QR code opens on (the till's rule). */
  form: QrForm;
  expires_at: string;
  fiat_total: string;
  fiat_currency: string;
  /** `desc`: an item's options (docs/catalog.md#options), or "". */
  items: { name: string; desc: string; count: number; total: string }[];
  live: CheckoutLive;
}

/** One `display` event: the cart, and the payment while one is charged. */
export interface DisplayState {
  cart: Omit<DisplayCart, 'payment_id'> | null;
  payment: DisplayPayment | null;
  /** While the till waits for the customer's tip: the choices (docs/counter.md#tips-on-the-customers-display). */
  tip: TipScreen | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The display's part of a vendor payment view (lib/payments/view.ts). */
export function displayPayment(v: Record<string, unknown>): DisplayPayment {
  const p = (v.payment ?? {}) as { items?: unknown };
  const items = Array.isArray(p.items) ? p.items : [];
  return {
    id: str(v.id),
    total: str(v.total),
    uri: str(v.uri),
    connect_uri: str(v.connect_uri),
    form: preferredQrForm(v as Parameters<typeof preferredQrForm>[0]),
    expires_at: str(v.expires_at),
    fiat_total: str(v.fiat_total),
    fiat_currency: str(v.fiat_currency),
    items: items.slice(0, MAX_DISPLAY_LINES).map((it) => {
      const i = (it ?? {}) as { name?: unknown; desc?: unknown; count?: unknown; total?: unknown };
      return { name: str(i.name), desc: str(i.desc), count: typeof i.count === 'number' ? i.count : 1, total: str(i.total) };
    }),
    live: checkoutLive(v),
  };
}

/** A stored cart, re-checked (it came from a till); null when it does not parse. */
export function storedCart(state: unknown): DisplayCart | null {
  const r = DisplayCartSchema.safeParse(state);
  return r.success ? r.data : null;
}
