'use client';
// The till's view of whether the store can take money (docs/operations.md#readiness): it starts from what
// the page rendered, re-checks /api/health on its own (often while not ready, so it unlocks by
// itself), and learns at once when the server refuses a charge with 503 not_ready.
import { useCallback } from 'react';
import { useTranslations } from 'next-intl';
import { cashierReasonKeys } from '@/lib/readiness';
import { problemCodes, useReadiness, type Readiness } from '@/app/_lib/use-readiness';
import s from './pos.module.css';

export type TillReadiness = Readiness;

const RECHECK_NOT_READY_MS = 5_000;
const RECHECK_READY_MS = 30_000;

export function useTillReadiness(initial: TillReadiness) {
  // Polls while mounted: every 5 s while not ready, every 30 s once ready. An unreadable answer
  // keeps what we know (offline: the live-updates banner speaks for the connection).
  const { data, mutate } = useReadiness(initial, RECHECK_NOT_READY_MS, RECHECK_READY_MS);

  /** The server refused a charge (503 not_ready, with its problems). */
  const refused = useCallback(
    (body: unknown) => {
      void mutate({ ready: false, codes: problemCodes(body) }, { revalidate: false });
    },
    [mutate],
  );

  return { ...(data ?? initial), refused };
}

export const NOT_READY_ID = 'till-not-ready';

/** The cashier's explanation of why Charge is off. */
export function NotReadyNotice({ codes }: { codes: string[] }) {
  const t = useTranslations('notReady');
  const { reasons, onlyWaiting } = cashierReasonKeys(codes);
  const first = reasons.length ? t('withReasons', { reasons: reasons.map((r) => t(r as 'no_wallet')).join('; ') }) : t('noReason');
  return (
    <p id={NOT_READY_ID} className={s.notReady} role="alert" data-testid="till-not-ready">
      {first} {onlyWaiting ? t('wait') : t('askOwner')}
    </p>
  );
}
