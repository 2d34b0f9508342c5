// Today's sales as the till follows them live (a light poll of GET /api/v1/payments), and the
// body that charges an expired sale again with the same lines. Pure: no fetch, no clock.
import { formatStoreTime } from '../time/zone';
import type { RecentSale } from './catalog';
import type { PaymentBody, PaymentBodyItem } from './cart';

/** The vendor API's payment view, as far as the till reads it (lib/relay/payment-view). */
export interface VendorPaymentView {
  id: string;
  status: string;
  total: string;
  exception?: string | null;
  expired?: boolean;
  created_at: string;
  payment?: {
    items?: { type: string; id: string; name: string; count?: number; unit?: string; tax?: string; icon?: string }[];
    order_reference?: string;
    note?: string;
    fiat_total?: string;
    fiat_tax?: string;
    fiat_currency?: string;
  };
}

/** A sale's state in words (today's sales, the receipt). */
export const STATE_LABEL: Record<string, string> = {
  unpaid: 'Waiting', accepted: 'Accepted', confirmed: 'Paid', declined: 'Declined', cancelled: 'Cancelled', expired: 'Expired',
};

/** What the cashier needs to see: unpaid, accepted, confirmed, declined, cancelled or expired (as lib/pos/catalog saleState). */
export function saleStateOf(v: Pick<VendorPaymentView, 'status' | 'exception' | 'expired'>): string {
  if (v.status === 'declined' && v.exception === 'cancelled') return 'cancelled';
  if (v.expired) return 'expired';
  return v.status;
}

export function saleFromView(v: VendorPaymentView, timeZone: string): RecentSale {
  return {
    id: v.id, total: v.total, status: v.status, state: saleStateOf(v), fiatTotal: v.payment?.fiat_total ?? '',
    fiatCurrency: v.payment?.fiat_currency ?? '', orderReference: v.payment?.order_reference ?? '', createdAt: v.created_at,
    timeText: formatStoreTime(v.created_at, timeZone, { style: 'time' }),
  };
}

/** A sale the cashier can open again to show its QR code: still waiting for the customer. */
export const canReopen = (s: Pick<RecentSale, 'state'>) => s.state === 'unpaid';

/** The lines of a payment as a new POST /api/v1/payments body: "charge again" with the same cart. */
export function chargeAgainBody(p: NonNullable<VendorPaymentView['payment']>, orderReference: string): PaymentBody {
  const items: PaymentBodyItem[] = (p.items ?? []).map((it) => {
    const out: PaymentBodyItem = { type: it.type as PaymentBodyItem['type'], id: it.id, name: it.name, count: it.count ?? 1, unit: it.unit ?? '0' };
    if (it.tax && !/^0*(\.0*)?$/.test(it.tax)) out.tax = it.tax;
    if (it.icon) out.icon = it.icon;
    return out;
  });
  if (!items.length) throw new RangeError('the sale has no lines to charge again');
  const body: PaymentBody = { items, order_reference: orderReference };
  if (p.note) body.note = p.note;
  if (p.fiat_total && p.fiat_currency) {
    body.fiat_total = p.fiat_total;
    body.fiat_currency = p.fiat_currency;
    if (p.fiat_tax) body.fiat_tax = p.fiat_tax;
  }
  return body;
}

/** Remembers the fiat-priced request that made a payment (its lines in the pricing currency), for "charge again". */
export function rememberPriced(map: Map<string, string>, id: string, body: string): void {
  if (!id || !body.includes('"currency"')) return;
  map.set(id, body);
  if (map.size > 50) map.delete(map.keys().next().value as string);
}

/** The remembered fiat request of payment `id` with a new order reference: converted again at today's rate. */
export function repriceBody(map: Map<string, string>, id: string, orderReference: string): Record<string, unknown> | null {
  const body = map.get(id);
  if (!body) return null;
  return { ...(JSON.parse(body) as Record<string, unknown>), order_reference: orderReference };
}
