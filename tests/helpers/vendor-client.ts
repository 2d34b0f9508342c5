// The vendor API and the relay as integration tests call them: JSON in, { status, body,
// headers } out. `baseUrl` is a getter because tests restart the app on a new port.
import { expect } from 'vitest';
import { parseKoinu } from '@/lib/money';
import type { ConnectPayment } from '@/lib/connect';
import { answer, type Answer } from './answer';

export { answer, type Answer } from './answer';

/** A payment as POST /api/v1/payments answers (the fields tests read). */
export interface CreatedPaymentJson {
  id: string;
  status: string;
  total: string;
  uri: string;
  connect_uri: string;
  checkout_url: string;
  envelope_url: string;
  payment: ConnectPayment;
}

/** POST /relay/pay and /relay/status as a wallet reads them (docs/relay.md). */
export interface RelayStatusJson {
  id: string;
  status: string;
  txid?: string;
  confirmed_at?: string;
  required?: number;
  confirmed?: number;
}
/** A /relay/pay that took the tx: it names it. */
export type RelayAcceptedJson = RelayStatusJson & { txid: string };

/** GET /api/v1/payments/<id> (the fields tests read beyond their matchers). */
export interface PaymentViewJson {
  id: string;
  status: string;
  txid: string | null;
  required: number;
  confirmed: number;
  block_height: number | null;
  exception: string | null;
  refunds: { status: string }[];
}

export function vendorClient(baseUrl: () => string, apiKey: string) {
  /** A vendor API call with the bearer key; `T` is how the test reads the answer. */
  const api = async <T = unknown>(path: string, init: RequestInit = {}): Promise<Answer<T>> =>
    answer<T>(
      await fetch(baseUrl() + path, {
        ...init,
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
      }),
    );
  /** POST /relay/pay or /relay/status, as a wallet sends it (no credentials). */
  const relay = async <T = unknown>(path: 'pay' | 'status', body: unknown): Promise<Answer<T>> =>
    answer<T>(
      await fetch(`${baseUrl()}/relay/${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  /** POST /api/v1/payments with `body`, expecting 201; the created payment. */
  const createPayment = async (body: Record<string, unknown>): Promise<CreatedPaymentJson> => {
    const r = await api<CreatedPaymentJson>('/api/v1/payments', { method: 'POST', body: JSON.stringify(body) });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  return { api, relay, createPayment };
}

/** A payment's P2PKH outputs as litecoind's payTo() takes them. */
export const outputsOf = (p: { payment: Pick<ConnectPayment, 'outputs'> }): { address: string; amountKoinu: bigint }[] =>
  p.payment.outputs.flatMap((o) =>
    o.type === 'p2pkh' && o.address && o.amount ? [{ address: o.address, amountKoinu: parseKoinu(o.amount) }] : [],
  );
