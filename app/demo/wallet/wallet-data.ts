// What the demo wallet's screen knows, and the plain functions that read it: the devnet-funded
// wallet (GET /demo/api/wallet), the phases of one payment, and their texts.
import type { PaymentDisplay, VerifiedPayment, WalletUtxo } from '@/lib/wallet';
import type { PaymentStatus } from '@/lib/connect';
import { parseKoinu } from '@/lib/money';

export interface DemoWalletJson {
  network: 'testnet' | 'regtest';
  address: string;
  /** Sent as the `refund` address: not the wallet's own, whose coins pay the refund back (docs/security.md). */
  refund_address: string;
  wif: string;
  balance: string;
  utxos: { txid: string; vout: number; amount: string; script: string; address: string; confirmations: number }[];
}

/** Where one payment stands on the phone, from the URI opened to the relay's last answer. */
export type Phase =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'review'; verified: VerifiedPayment; view: PaymentDisplay }
  | { kind: 'paying'; view: PaymentDisplay }
  | { kind: 'status'; view: PaymentDisplay; status: PaymentStatus }
  | { kind: 'error'; message: string };

// Local demo only: the devnet server speaks plain http on localhost.
export const allowHttp = () => typeof window !== 'undefined' && window.location.protocol === 'http:';

/** The demo wallet, or why there is none (off the devnet the route answers 404). */
export async function loadWallet(): Promise<DemoWalletJson | string> {
  const r = await fetch('/demo/api/wallet', { cache: 'no-store' });
  if (r.status === 404) return 'The demo wallet runs only on the devnet chain (npm run demo).';
  if (!r.ok) return `The demo wallet is unavailable (HTTP ${r.status}).`;
  return (await r.json()) as DemoWalletJson;
}

/** The wallet's coins as lib/wallet spends them: amounts parsed to koinu by lib/money, never floats. */
export function walletUtxos(w: DemoWalletJson): WalletUtxo[] {
  return w.utxos.map((u) => ({ txid: u.txid, vout: u.vout, amount: parseKoinu(u.amount), script: u.script }));
}

export function errorText(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string };
  return err?.code ? `${err.message} (${err.code})` : String(err?.message ?? e);
}

export function statusText(s: PaymentStatus): string {
  switch (s.status) {
    case 'unpaid':
      return 'Waiting…';
    case 'accepted':
      return `Accepted — ${s.confirmed}/${s.required} confirmations`;
    case 'confirmed':
      return 'Confirmed ✓';
    case 'declined':
      return `Declined: ${s.reason}`;
  }
}

/** Whole seconds until the payment expires, never negative. */
export function secondsLeft(view: PaymentDisplay, now: number): number {
  return Math.max(0, Math.floor((view.expiresAt - now) / 1000));
}

/** m:ss, as the countdown shows it. */
export function countdownText(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
