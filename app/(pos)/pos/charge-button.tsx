'use client';
// The foot of the cart: what stops a charge (an error, the till offline, the store not ready to
// take money, docs/operations.md#readiness) and the Charge button. Another tender (Cash) goes
// beside Charge in the sale screen, under the same notices.
import { useLocale, useTranslations } from 'next-intl';
import { moneyText } from '@/lib/pos/client';
import { NotReadyNotice, NOT_READY_ID, type TillReadiness } from './readiness';
import { OfflineNotice, OFFLINE_ID } from './offline';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './pos.module.css';

/** Why charging is off, if it is: the id a tender button is described by. */
export const blockedById = (offline: boolean, readiness: TillReadiness) =>
  offline ? OFFLINE_ID : readiness.ready ? undefined : NOT_READY_ID;

export function ChargeNotices({ error, offline, readiness }: { error: string; offline: boolean; readiness: TillReadiness }) {
  return (
    <>
      {error ? (
        <p className={s.error} role="alert">
          {error}
        </p>
      ) : null}
      {offline ? <OfflineNotice /> : readiness.ready ? null : <NotReadyNotice codes={readiness.codes} />}
    </>
  );
}

export function ChargeButton({
  total,
  currency,
  busy,
  offline,
  readiness,
  onCharge,
}: {
  total: bigint;
  currency: string;
  busy: boolean;
  offline: boolean;
  readiness: TillReadiness;
  onCharge: () => void;
}) {
  const t = useTranslations('till');
  const locale = useLocale();
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      className={s.charge}
      onClick={onCharge}
      disabled={!hydrated || busy || total <= 0n || !readiness.ready || offline}
      aria-describedby={blockedById(offline, readiness)}
    >
      {busy ? t('starting') : t('charge', { amount: moneyText(total > 0n ? total : 0n, currency, locale) })}
    </button>
  );
}

/** In place of Charge while the customer's display asks for a tip (docs/counter.md#tips-on-the-customers-display). */
export function TipWaiting({ onSkip }: { onSkip: () => void }) {
  const t = useTranslations('till');
  return (
    <div className={s.tipWaiting} role="status" data-testid="tip-waiting">
      <strong>{t('waitingForTip')}</strong>
      <span>{t('waitingForTipHelp')}</span>
      <button type="button" className={s.secondary} onClick={onSkip}>
        {t('skipTip')}
      </button>
    </div>
  );
}
