'use client';
// The wallet's history on the node page (docs/node.md#the-wallets-history-birthday-and-rescan): the birthday, where the history is
// complete from, and the rescan's progress, polled live from /api/admin/node (through SWR) every
// 2 s while a rescan runs, every 10 s otherwise. The owner sets the birthday or starts a rescan
// from a height or a UTC date.
import { useState } from 'react';
import { usePoll } from '@/app/_lib/swr';
import { useLocale, useTranslations } from 'next-intl';
import { localeNumber } from '@/lib/i18n';
import { useAdminCall } from '../_components/api';
import type { WalletHistoryStatus } from '@/lib/chain';
import { ActionButton, SubmitButton } from '@/app/_lib/action-button';

export function WalletHistory({ initial, owner }: { initial: WalletHistoryStatus; owner: boolean }) {
  const t = useTranslations('adminNode');
  const locale = useLocale();
  const adminCall = useAdminCall();
  const { data, mutate } = usePoll<{ wallet: WalletHistoryStatus }>(
    '/api/admin/node',
    { wallet: initial },
    {
      refreshInterval: (cur) => (cur?.wallet.rescan?.running ? 2_000 : 10_000),
    },
  );
  const w = data?.wallet ?? initial;
  const setW = (next: WalletHistoryStatus) => void mutate({ wallet: next }, { revalidate: false });
  const [from, setFrom] = useState(initial.birthday ?? '');
  const [msg, setMsg] = useState('');
  const [busy, setBusy] = useState(false);

  const act = async (method: string, url: string, body: unknown, done: string) => {
    setBusy(true);
    const r = await adminCall<WalletHistoryStatus | { wallet: WalletHistoryStatus }>(method, url, body);
    setBusy(false);
    if (!r.ok) return setMsg(r.message);
    setW('wallet' in r.data ? r.data.wallet : r.data);
    setMsg(done);
  };
  const input = () => (/^\d+$/.test(from.trim()) ? Number(from.trim()) : from.trim());
  const s = w.rescan;
  return (
    <section className="bo-card" data-testid="wallet-history">
      <h2>{t('wallet')}</h2>
      <p className="muted">
        {t('birthday')} <b data-testid="wallet-birthday">{w.birthday ?? t('birthdayNotSet')}</b>
        {' · '}
        {t('completeFrom')} <b data-testid="wallet-scanned-from">{w.scanned_from ?? '—'}</b>
      </p>
      {s ? (
        <>
          <div
            className="bo-progress"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={s.percent}
            aria-label={t('rescanLabel')}
          >
            <div className="bo-progress-bar" style={{ width: `${s.percent}%` }} />
          </div>
          <p className="muted" data-testid="rescan-progress">
            {s.running ? t('rescanning') : t('lastRescan')}:{' '}
            {t('rescanProgress', {
              pct: localeNumber(String(s.percent), locale),
              current: Math.max(s.current, s.from - 1),
              target: s.target,
              from: s.from,
              started: s.started_at.slice(0, 19).replace('T', ' '),
            })}
            {s.finished_at ? ` · ${t('finished', { time: s.finished_at.slice(11, 19) })}` : ''}
            {s.error ? <span className="bo-error"> · {t('paused', { error: s.error })}</span> : null}
          </p>
        </>
      ) : null}
      {owner ? (
        <form
          className="bo-form-grid"
          onSubmit={(e) => {
            e.preventDefault();
            void act('POST', '/api/admin/rescan', { from: input() }, t('rescanStarted'));
          }}
        >
          <label className="field">
            <span>{t('fromLabel')}</span>
            <input
              name="from"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              placeholder={t('fromPlaceholder')}
              autoComplete="off"
              required
            />
          </label>
          <div className="bo-form-actions">
            <SubmitButton className="btn" disabled={busy}>
              {t('rescan')}
            </SubmitButton>
            <ActionButton
              className="btn"
              disabled={busy}
              onClick={() => void act('PATCH', '/api/admin/node', { wallet_birthday: from.trim() ? input() : null }, t('birthdaySaved'))}
            >
              {t('saveBirthday')}
            </ActionButton>
            {msg ? (
              <span role="status" className="muted">
                {msg}
              </span>
            ) : null}
          </div>
        </form>
      ) : null}
    </section>
  );
}
