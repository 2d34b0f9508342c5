// The JSON shapes tests read out of API responses, as parsed (amounts are strings, dates ISO
// strings). Only the fields tests look at: each is a view of a documented response, not its schema.
export type { Health } from '@/lib/health';

/** An error answer (docs/api.md#errors): a stable code, and a message for people. */
export interface ErrorJson {
  error: string;
  message: string;
}

/** One coin of GET /demo/api/wallet. */
export interface DemoUtxoJson {
  txid: string;
  vout: number;
  amount: string;
  script: string;
}

/** One entry of GET /api/v1/events. */
export interface EventJson {
  type: string;
  cursor: string;
  payment: { id: string };
  refund?: { id: string };
}

/** One entry of GET /api/admin/audit. */
export interface AuditEntryJson {
  at: string;
  user: string | null;
  action: string;
  changes: Record<string, unknown>;
}

/** An output of a payment as the API serves it. */
export interface OutputJson {
  type: string;
  address?: string;
  amount?: string;
}

/** The receiving wallet's rescan state (GET /api/admin/wallet). */
export interface WalletRescanJson {
  scanned_from: number | null;
  rescan: { running: boolean; percent: number; blocks: number; target: number; started_at: string; finished_at: string };
}

/** A raw transaction output as the node's getrawtransaction (verbose) reports it. */
export interface NodeVoutJson {
  n: number;
  value: number;
  scriptPubKey: { hex: string; address?: string; addresses?: string[] };
}

/** One payment of GET /api/v1/payments (the list), or as POST /api/v1/payments created it. */
export interface ListedPaymentJson {
  id: string;
  status: string;
  checkout_url: string;
  payment: { outputs: OutputJson[] };
}

/** A page of GET /api/v1/payments. */
export interface PaymentPageJson {
  payments: ListedPaymentJson[];
  next_cursor: string | null;
}

/** A page of GET /api/v1/events. */
export interface EventPageJson {
  events: EventJson[];
  next_cursor: string | null;
}

/** One row of the back office's invoice list (GET /api/admin/invoices). */
export interface InvoiceJson {
  id: string;
  status: string;
  total: string;
  fiat_total: string;
  terminal: string | null;
  tender: string;
  mint_hash: string | null;
  pending_token_balance_id: string | null;
}

/** A priced line of a payment (`payment.items`). */
export interface ItemJson {
  name: string;
  count: number;
  unit: string;
  total: string;
  tax: string;
}

/** One product of GET /api/admin/products. */
export interface ProductJson {
  id: string;
  sku: string;
  name: string;
  stock: number | null;
  option_groups: { name: string }[];
}

/** One user of GET /api/admin/users. */
export interface UserJson {
  id: string;
  email: string;
  name: string;
  disabled: boolean;
}

/** One till of GET /api/admin/terminals. */
export interface TerminalJson {
  id: string;
  name: string;
  revoked: boolean;
}

/** One stock movement of a product's stock history. */
export interface StockMovementJson {
  reason: string;
  payment_id: string | null;
}

/** GET /api/v1/reports/sales: the figures tests read (docs/api.md, docs/catalog.md#reports). */
export interface SalesReportJson {
  /** `store`, or `own_sales` for a cashier (and a manager asking `mine`). */
  scope: string;
  from: string;
  tz: string;
  totals: { count: number; gross: string; refunds: string; net: string; tips: string };
  by_status: Record<string, { count: number; amount: string }>;
  by_day: unknown[];
  by_tender: { cash: TenderSalesJson; doge: TenderSalesJson };
  by_terminal: TerminalSalesJson[];
  by_product: { gross: string }[];
  by_category: { category: string; count: number; gross: string; tax: string }[];
}

/** One till's row of GET /api/v1/reports/sales (`by_terminal`). */
export interface TerminalSalesJson {
  id: string;
  name: string;
  count: number;
  gross: string;
}

/** One tender's figures of GET /api/v1/reports/sales (`by_tender.cash`, `by_tender.doge`). */
export interface TenderSalesJson {
  count: number;
  gross: string;
  fiat: { currency: string; count: number; gross: string }[];
}

/** GET /api/pos/shift: a user's drawer (docs/counter.md#close-shift): the cash expected in it, and its sales. */
export interface ShiftJson {
  expected: string;
  sales: number;
}

/** A refund as a payment's `refunds` list shows it. */
export interface RefundJson {
  amount: string;
  fiat_amount: string | null;
  status: string;
}

/** getblock at verbosity 1 (the default): the block's txids. */
export interface NodeBlockJson {
  height: number;
  tx: string[];
}

/** getblock at verbosity 2: each tx decoded. */
export interface NodeBlockTxsJson {
  tx: { txid: string; vout: NodeVoutJson[] }[];
}

/** getblockheader (verbose). */
export interface NodeHeaderJson {
  height: number;
  time: number;
  versionHex: string;
  chainwork: string;
}

/** getrawtransaction (verbose). */
export interface NodeTxJson {
  txid: string;
  hex: string;
  confirmations?: number;
  vout: NodeVoutJson[];
}

/** One coin of listunspent. */
export interface NodeUnspentJson {
  txid: string;
  vout: number;
}
