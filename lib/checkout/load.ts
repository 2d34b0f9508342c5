// The customer's checkout page for one payment (docs/using-counter.md, "The customer's checkout
// page"): what GET /checkout/<id> shows, read from the database. The id is the capability, as
// for /dc/<id>: anyone holding it sees this payment's own lines and status, and nothing else —
// no cashier, no other sale, no store setting beyond what the signed envelope (already public at
// /dc/<id>) carries. A refund's id, a payment without an address (nothing to pay to), an unknown
// or malformed id are all "not found".
import type { Db } from '../db';
import { formatKoinu } from '../money';
import { preferredQrForm, type QrForm } from '../connect';
import { decodeSignedPayment, links, vendorPaymentView } from '../payments';
import { fiatReceiptLines, hasFiatLines, receiptLines, type ReceiptModel } from '../receipts';
import { checkoutLive, type CheckoutLive } from './state';

/** Payment ids as issued (docs/api.md: URL-safe); anything else is never looked up. */
export const CHECKOUT_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export interface Checkout {
  id: string;
  store: { name: string; icon: string };
  /** The order's reference for the customer ("A073"), '' when none. */
  orderReference: string;
  /** The lines as priced: in DOGE, or in the fiat currency a fiat-priced sale was priced in. */
  order: ReceiptModel;
  /** What the customer pays: the DOGE total (8-DP string). */
  total: string;
  /** The signed fiat total and its currency ('' when none). */
  fiatTotal: string;
  fiatCurrency: string;
  /** The payment's `dogecoin:` URI (address, amount, dc, h) and its `dogeconnect:` URI. */
  uri: string;
  connectUri: string;
  /** The form the QR code shows, under the till's rule. */
  form: QrForm;
  expiresAt: string;
  /** "Back to the shop": the vendor's order page, '' when none or not a web address. */
  vendorOrderUrl: string;
  live: CheckoutLive;
}

/** Only web addresses become links or images (defence in depth: creation already checks them). */
export const webUrl = (v: unknown): string => (typeof v === 'string' && /^https?:\/\/[^\s]+$/i.test(v) ? v : '');

interface SignedPaymentView {
  vendor_name?: string;
  vendor_icon?: string;
  vendor_order_url?: string;
  items?: { type?: string }[];
  outputs?: { type?: string }[];
}

/** The page's contents, or null when the id is not a payment the page shows. */
export async function loadCheckout(db: Db, id: string, publicUrl: string, now = new Date()): Promise<Checkout | null> {
  if (typeof id !== 'string' || !CHECKOUT_ID_RE.test(id)) return null;
  const p = await db.prisma.payment.findUnique({ where: { id }, include: { lines: { orderBy: { idx: 'asc' } } } });
  if (!shownOnCheckout(p)) return null;
  const signed = decodeSignedPayment(p.envelope) as SignedPaymentView;
  const fiat = hasFiatLines(p.lines, p.fiatCurrency, p.rateValue) && p.fiatTotal !== '';
  const l = links(publicUrl, p);
  return {
    id: p.id,
    store: { name: typeof signed.vendor_name === 'string' ? signed.vendor_name : '', icon: webUrl(signed.vendor_icon) },
    orderReference: p.orderReference,
    order: fiat ? fiatReceiptLines(p.lines, p.fiatTotal, p.fiatCurrency) : receiptLines(p.lines, p.total),
    total: formatKoinu(p.total),
    fiatTotal: p.fiatTotal,
    fiatCurrency: p.fiatCurrency,
    uri: l.uri,
    connectUri: l.connect_uri,
    form: preferredQrForm(signed),
    expiresAt: p.expiresAt.toISOString(),
    vendorOrderUrl: webUrl(signed.vendor_order_url),
    live: checkoutLive(vendorPaymentView(p, publicUrl, now)),
  };
}

/** A sale with an address to pay: not a refund (docs/api.md#refunds), not a payment without an address. */
function shownOnCheckout<P extends { refundOf: string | null; address: string }>(p: P | null): p is P {
  return p !== null && p.refundOf === null && p.address !== '';
}

/** Whether the checkout page shows payment `id` (the public stream answers only for those). */
export async function checkoutExists(db: Db, id: string): Promise<boolean> {
  if (typeof id !== 'string' || !CHECKOUT_ID_RE.test(id)) return false;
  return shownOnCheckout(await db.prisma.payment.findUnique({ where: { id }, select: { refundOf: true, address: true } }));
}
