// Which URI a payment's QR code shows first (docs/using-counter.md, "The QR code every wallet
// reads"): the `dogecoin:` form, which ordinary wallets pay by its address and amount and
// DogeConnect wallets follow by its `dc` and `h`; or the `dogeconnect:` form for a payment an
// ordinary wallet cannot pay: one with `data` outputs (the wallet would send no OP_RETURN) or
// `signing` items. Pure.

export type QrForm = 'dogecoin' | 'dogeconnect';

/** The parts of a Connect Payment that decide the form. */
export interface QrFormPayment {
  items?: readonly { type?: string }[];
  outputs?: readonly { type?: string }[];
}

export function preferredQrForm(payment: QrFormPayment): QrForm {
  const data = (payment.outputs ?? []).some((o) => o.type === 'data');
  const signing = (payment.items ?? []).some((i) => i.type === 'signing');
  return data || signing ? 'dogeconnect' : 'dogecoin';
}
