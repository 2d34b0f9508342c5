// The display model of a verified payment: what a wallet shows before the user confirms.
// Missing optional fields get placeholders ("" and missing are the same: docs/protocol.md#amounts); signing
// lines are flagged for prominent display; amounts are formatted from exact koinu.
import { type ConnectPayment, isProvided } from '../connect';
import { formatKoinu, parseKoinu } from '../money';
import { paymentDeadline } from './envelope';

/** Placeholder icon (an inline SVG coin) for vendors and items without one. */
export const PLACEHOLDER_ICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#c2a633"/><text x="16" y="22" font-size="16" text-anchor="middle" fill="#fff" font-family="sans-serif">Ð</text></svg>',
  );

export interface DisplayLine {
  type: ConnectPayment['items'][number]['type'];
  id: string;
  name: string;
  description: string;
  icon: string;
  iconIsPlaceholder: boolean;
  /** null for signing lines. */
  count: number | null;
  unit: string | null;
  total: string | null;
  tax: string | null;
  /** A data-signing line: show it prominently, the user is signing and broadcasting data. */
  prominent: boolean;
}

export interface DisplayOutput {
  type: 'p2pkh' | 'data';
  address: string | null;
  amount: string | null;
  /** Hex payload of a data output. */
  data: string | null;
}

export interface PaymentDisplay {
  id: string;
  vendor: { name: string; icon: string; iconIsPlaceholder: boolean; address: string; url: string };
  orderId: string;
  orderReference: string;
  orderUrl: string;
  note: string;
  /** Formatted 8-DP strings (canonical, e.g. "22.05"). */
  total: string;
  totalKoinu: bigint;
  /** What the transaction actually pays: the sum of the p2pkh outputs (the fee comes on top). */
  pays: string;
  paysKoinu: bigint;
  /** False when the vendor's `total` is not what the outputs pay: show `pays` to the user, prominently. */
  totalMatchesOutputs: boolean;
  fees: string | null;
  taxes: string | null;
  fiat: { total: string | null; tax: string | null; currency: string } | null;
  lines: DisplayLine[];
  outputs: DisplayOutput[];
  /** True when at least one line is a signing line or one output carries data. */
  signsData: boolean;
  issued: string;
  expiresAt: number;
  feePerKb: string;
  maxSize: number;
}

const opt = (s: string | undefined, placeholder = ''): string => (isProvided(s) ? s : placeholder);
const amount = (s: string | undefined): string | null => (isProvided(s) ? formatKoinu(parseKoinu(s, { allowNegative: true })) : null);

export function paymentDisplay(p: ConnectPayment, placeholders: { icon?: string; text?: string } = {}): PaymentDisplay {
  const icon = placeholders.icon ?? PLACEHOLDER_ICON;
  const text = placeholders.text ?? '—';
  const lines: DisplayLine[] = p.items.map((it) => {
    const signing = it.type === 'signing';
    return {
      type: it.type,
      id: it.id,
      name: it.name,
      description: opt(it.desc),
      icon: opt(it.icon, icon),
      iconIsPlaceholder: !isProvided(it.icon),
      count: signing ? null : (it.count ?? null),
      unit: signing ? null : amount(it.unit),
      total: signing ? null : amount(it.total),
      tax: signing ? null : amount(it.tax),
      prominent: signing,
    };
  });
  const outputs: DisplayOutput[] = p.outputs.map((o) =>
    o.type === 'data'
      ? { type: 'data', address: null, amount: null, data: (o.data ?? '').toLowerCase() }
      : { type: 'p2pkh', address: o.address ?? '', amount: amount(o.amount), data: null },
  );
  const hasFiat = isProvided(p.fiat_total) || isProvided(p.fiat_tax);
  const totalKoinu = parseKoinu(p.total);
  const paysKoinu = p.outputs.reduce((sum, o) => (o.type === 'data' ? sum : sum + parseKoinu(o.amount ?? '')), 0n);
  return {
    id: p.id,
    vendor: {
      name: opt(p.vendor_name, text),
      icon: opt(p.vendor_icon, icon),
      iconIsPlaceholder: !isProvided(p.vendor_icon),
      address: opt(p.vendor_address, text),
      url: opt(p.vendor_url),
    },
    orderId: opt(p.vendor_order_id, text),
    orderReference: opt(p.order_reference, text),
    orderUrl: opt(p.vendor_order_url),
    note: opt(p.note),
    total: formatKoinu(totalKoinu),
    totalKoinu,
    pays: formatKoinu(paysKoinu),
    paysKoinu,
    totalMatchesOutputs: totalKoinu === paysKoinu,
    fees: amount(p.fees),
    taxes: amount(p.taxes),
    fiat: hasFiat ? { total: opt(p.fiat_total) || null, tax: opt(p.fiat_tax) || null, currency: opt(p.fiat_currency) } : null,
    lines,
    outputs,
    signsData: lines.some((l) => l.prominent) || outputs.some((o) => o.type === 'data'),
    issued: p.issued,
    expiresAt: paymentDeadline(p),
    feePerKb: formatKoinu(parseKoinu(p.fee_per_kb)),
    maxSize: p.max_size,
  };
}
