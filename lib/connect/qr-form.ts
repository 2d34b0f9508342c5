// Which payment QR code a till or checkout page shows first (docs/relay.md, "The QR code every
// wallet reads"). Most customers carry an ordinary wallet: it reads only the address and amount
// of a `dogecoin:` URI, while a DogeConnect wallet follows that URI's `dc` and `h`. So the
// `dogecoin:` form is the default. A payment with a `data` output or a `signing` item cannot be
// paid by an ordinary wallet (it would pay the address and amount without committing the data),
// so it opens on the `dogeconnect:` form, and the screen says a DogeConnect wallet is needed.

export type QrForm = 'dogecoin' | 'dogeconnect';

// Elements are read for their `type` only (an output without one is p2pkh, docs/protocol.md#limits-and-versioning).
type Typed = object | null | undefined;
const typeOf = (x: Typed) => (x ? (x as { type?: unknown }).type : undefined);
/** A Connect Payment (docs/protocol.md#the-payment-object), or anything with its `items` and `outputs`. */
export interface QrFormPayment {
  items?: readonly Typed[] | null;
  outputs?: readonly Typed[] | null;
}
/** The vendor payment body (`POST /api/v1/payments`, `GET /api/v1/payments/<id>`), or the Connect Payment itself. */
export type QrFormInput = QrFormPayment & { payment?: QrFormPayment | null };

/** True when only a DogeConnect wallet can pay this payment: a `data` output or a `signing` item. */
export function needsConnectWallet(body: QrFormInput | null | undefined): boolean {
  if (!body) return false;
  const parts: QrFormPayment[] = [body];
  if (body.payment) parts.push(body.payment);
  return parts.some(
    (p) =>
      (Array.isArray(p.items) && p.items.some((i) => typeOf(i) === 'signing')) ||
      (Array.isArray(p.outputs) && p.outputs.some((o) => typeOf(o) === 'data')),
  );
}

/** The QR form to open on: 'dogeconnect' when only a DogeConnect wallet can pay, else 'dogecoin'. */
export function preferredQrForm(body: QrFormInput | null | undefined): QrForm {
  return needsConnectWallet(body) ? 'dogeconnect' : 'dogecoin';
}
