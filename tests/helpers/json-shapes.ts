// The JSON shapes tests read out of API responses, as parsed (amounts are strings, dates ISO
// strings). Only the fields tests look at: each is a view of a documented response, not its schema.
export type { Health } from '@/lib/health';

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
  rescan: { running: boolean; percent: number; blocks: number; started_at: string; finished_at: string };
}

/** A raw transaction output as the node's getrawtransaction (verbose) reports it. */
export interface NodeVoutJson {
  n: number;
  value: number;
  scriptPubKey: { hex: string; address?: string; addresses?: string[] };
}
