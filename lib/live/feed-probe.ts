// The cheap per-round snapshot of a payment that the live update feed polls (lib/relay/
// feed-hub.ts), and what it tells: whether anything visible changed, whether the payment is final
// (lib/payments' predicates decide both).
import { isExpired, isFinal } from '../payments';

/** Enough of a payment row to notice every visible change. */
export interface FeedProbe {
  status: string;
  confirmations: number;
  txid: string | null;
  broadcastState: string;
  updatedAt: Date;
  expiresAt: Date;
}

/** Unpaid with nothing in flight and past its expiry: nothing more will happen at the counter. */
export const isExpiredProbe = (p: Pick<FeedProbe, 'status' | 'broadcastState' | 'expiresAt'>, now: Date): boolean => isExpired(p, now);

/** confirmed, declined (which includes cancelled) or expired. */
export const isFinalProbe = (p: FeedProbe, now: Date): boolean => isFinal(p, now);

export function probeFingerprint(p: FeedProbe, now: Date): string {
  return [p.status, p.confirmations, p.txid ?? '', p.broadcastState, p.updatedAt.getTime(), isExpiredProbe(p, now) ? 'x' : ''].join('|');
}
