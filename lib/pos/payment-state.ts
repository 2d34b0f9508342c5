// What the payment screen shows for a payment view (from POST /api/v1/payments, the SSE feed
// or a cancel): one of six states and its words. Pure; the clock is a parameter.
export type PosPaymentState = 'waiting' | 'accepted' | 'confirmed' | 'declined' | 'cancelled' | 'expired';

export interface PosPaymentView {
  status: string;
  required?: number;
  confirmed?: number;
  reason?: string | null;
  exception?: string | null;
  expired?: boolean;
}

export function posPaymentState(v: PosPaymentView, expiresAtMs: number, nowMs: number): PosPaymentState {
  if (v.status === 'confirmed') return 'confirmed';
  if (v.status === 'accepted') return 'accepted';
  if (v.status === 'declined') return v.exception === 'cancelled' ? 'cancelled' : 'declined';
  return v.expired || nowMs >= expiresAtMs ? 'expired' : 'waiting';
}

export const isFinalPosState = (s: PosPaymentState) => s !== 'waiting' && s !== 'accepted';

/** Headline and detail line for the status panel. */
export function posStatusText(s: PosPaymentState, v: PosPaymentView): [string, string] {
  switch (s) {
    case 'waiting':
      return ['Waiting for payment', 'Scan with a DogeConnect or Dogecoin wallet'];
    case 'accepted': {
      const m = v.required ?? 1;
      return ['Payment accepted', `${v.confirmed ?? 0} of ${m} confirmation${m === 1 ? '' : 's'}`];
    }
    case 'confirmed':
      return ['Paid ✓', 'Confirmed on the blockchain'];
    case 'declined':
      return ['Declined', v.reason || 'the transaction was refused'];
    case 'cancelled':
      return ['Cancelled', 'This payment was cancelled'];
    case 'expired':
      return ['Expired', 'No payment arrived in time'];
  }
}

/** m:ss, never negative. */
export function countdown(ms: number): string {
  const t = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}
