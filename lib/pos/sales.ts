// Today's sales as the till follows them live (a light poll of GET /api/v1/payments). Pure: no
// fetch, no clock.
import { formatStoreTime } from '../time';
import type { RecentSale } from './catalog';
// The pure predicates module itself: this file runs in the browser too.
import { tillStateOfView } from '../payments/client';

/** The vendor API's payment view, as far as the till reads it (lib/payments/view.ts). */
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
  unpaid: 'Waiting',
  accepted: 'Accepted',
  confirmed: 'Paid',
  declined: 'Declined',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/**
 * What the cashier needs to see: unpaid, accepted, confirmed, declined, cancelled or expired,
 * from the vendor view (lib/payments tillState, the one definition: a declined sale stays
 * declined past its deadline; the view's `expired` stands for "past its deadline" only while unpaid).
 */
export function saleStateOf(v: Pick<VendorPaymentView, 'status' | 'exception' | 'expired'>): string {
  return tillStateOfView(v);
}

export function saleFromView(v: VendorPaymentView, timeZone: string): RecentSale {
  return {
    id: v.id,
    total: v.total,
    status: v.status,
    state: saleStateOf(v),
    fiatTotal: v.payment?.fiat_total ?? '',
    fiatCurrency: v.payment?.fiat_currency ?? '',
    orderReference: v.payment?.order_reference ?? '',
    createdAt: v.created_at,
    timeText: formatStoreTime(v.created_at, timeZone, { style: 'time' }),
  };
}

/** A sale the cashier can open again to show its QR code: still waiting for the customer. */
export const canReopen = (s: Pick<RecentSale, 'state'>) => s.state === 'unpaid';

// Charging an expired sale again is built on the server from its stored lines: lib/pos/charge-again.ts.
