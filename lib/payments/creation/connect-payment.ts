// Builds the Connect Payment object (docs/protocol.md#the-payment-object) exactly as it will be signed. Optional strings
// are sent as ""; no relay_token is issued (docs/relay.md). Pure.
import { formatKoinu } from '../../money';
import type { ConnectPayment } from '../../connect';
import type { PricedLine, PricedOutput } from './request';

export interface ConnectPaymentInput {
  id: string;
  issued: string; // RFC 3339
  timeout: number;
  relay: string;
  feePerKb: bigint;
  maxSize: number;
  vendor: { name: string; icon: string; address: string; url: string };
  order: { vendorOrderUrl: string; vendorOrderId: string; orderReference: string; note: string };
  total: bigint;
  fees: bigint;
  taxes: bigint;
  fiat: { total: string; tax: string; currency: string };
  lines: PricedLine[];
  outputs: PricedOutput[];
  meta: Record<string, string>;
}

const amt = (k: bigint | null) => (k === null ? '' : formatKoinu(k));

export function connectItem(l: PricedLine): ConnectPayment['items'][number] {
  if (l.type === 'signing') return { type: l.type, id: l.id, icon: l.icon, name: l.name, desc: l.desc };
  return {
    type: l.type,
    id: l.id,
    icon: l.icon,
    name: l.name,
    desc: l.desc,
    count: l.count ?? 1,
    unit: amt(l.unit),
    total: amt(l.total),
    tax: amt(l.tax),
  };
}

export function connectOutput(o: PricedOutput): ConnectPayment['outputs'][number] {
  return o.type === 'data' ? { type: 'data', data: o.data ?? '' } : { type: 'p2pkh', address: o.address ?? '', amount: amt(o.amount) };
}

export function buildConnectPayment(p: ConnectPaymentInput): ConnectPayment {
  return {
    type: 'payment',
    id: p.id,
    issued: p.issued,
    timeout: p.timeout,
    relay: p.relay,
    fee_per_kb: formatKoinu(p.feePerKb),
    max_size: p.maxSize,
    vendor_icon: p.vendor.icon,
    vendor_name: p.vendor.name,
    vendor_address: p.vendor.address,
    vendor_url: p.vendor.url,
    vendor_order_url: p.order.vendorOrderUrl,
    vendor_order_id: p.order.vendorOrderId,
    order_reference: p.order.orderReference,
    note: p.order.note,
    total: formatKoinu(p.total),
    fees: formatKoinu(p.fees),
    taxes: formatKoinu(p.taxes),
    fiat_total: p.fiat.total,
    fiat_tax: p.fiat.tax,
    fiat_currency: p.fiat.currency,
    items: p.lines.map(connectItem),
    outputs: p.outputs.map(connectOutput),
    meta: p.meta,
  } as ConnectPayment;
}
