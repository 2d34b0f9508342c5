'use client';
// The till's view of whether the store can take money (docs/operations.md#readiness): it starts from what
// the page rendered, re-checks /api/health on its own (often while not ready, so it unlocks by
// itself), and learns at once when the server refuses a charge with 503 not_ready.
import { useCallback, useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { cashierReasonKeys } from '@/lib/readiness';
import s from './pos.module.css';

export interface TillReadiness {
  ready: boolean;
  /** Problem codes (lib/readiness), empty when ready. */
  codes: string[];
}

const RECHECK_NOT_READY_MS = 5_000;
const RECHECK_READY_MS = 30_000;

function fromBody(b: unknown): TillReadiness | null {
  const x = b as { ready?: unknown; problems?: unknown };
  if (typeof x?.ready !== 'boolean' || !Array.isArray(x.problems)) return null;
  return { ready: x.ready, codes: x.problems.map((p) => String((p as { code?: unknown })?.code ?? '')).filter(Boolean) };
}

export function useTillReadiness(initial: TillReadiness) {
  const [state, setState] = useState<TillReadiness>(initial);

  const recheck = useCallback(async () => {
    try {
      const r = await fetch('/api/health', { cache: 'no-store' });
      const next = fromBody(await r.json());
      if (next) setState((cur) => (cur.ready === next.ready && cur.codes.join() === next.codes.join() ? cur : next));
    } catch {
      /* offline: keep what we know; the live-updates banner speaks for the connection */
    }
  }, []);

  // Polls while mounted: every 5 s while not ready, every 30 s once ready.
  useEffect(() => {
    const t = setInterval(recheck, state.ready ? RECHECK_READY_MS : RECHECK_NOT_READY_MS);
    return () => clearInterval(t);
  }, [recheck, state.ready]);

  /** The server refused a charge (503 not_ready, with its problems). */
  const refused = useCallback((body: unknown) => {
    const x = body as { problems?: unknown };
    const codes = Array.isArray(x?.problems) ? x.problems.map((p) => String((p as { code?: unknown })?.code ?? '')).filter(Boolean) : [];
    setState({ ready: false, codes });
  }, []);

  return { ...state, refused };
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
