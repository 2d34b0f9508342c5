// The payment the till shows after Charge, as POST /api/v1/payments answers it (docs/api.md);
// its own file so the payment screen's parts share it without importing the screen.
import type { LockedRateView } from './pricing';

export interface CreatedPayment {
  id: string;
  status: string;
  total: string;
  uri: string;
  connect_uri: string;
  envelope_url: string;
  issued: string;
  expires_at: string;
  /** The rate a fiat-priced payment was converted at (docs/api.md#exchange-rates); null when priced in DOGE. */
  rate?: LockedRateView | null;
  payment: {
    items: { type: string; id: string; name: string; count?: number; unit?: string; total?: string; tax?: string }[];
    outputs?: { type?: string }[];
    fiat_total: string;
    fiat_tax: string;
    fiat_currency: string;
    order_reference?: string;
  };
}
