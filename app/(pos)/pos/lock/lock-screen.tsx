'use client';
// The till's lock screen (docs/counter.md): one button per user with a PIN, then a PIN field and
// Unlock. POST /api/auth/pin needs this browser's terminal cookie, which the browser sends by
// itself; a wrong PIN, a lock-out (429) and a revoked terminal are said plainly.
import { useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from '../pos.module.css';
import l from './lock.module.css';

export function LockScreen({ terminal, users }: { terminal: string; users: { id: string; name: string }[] }) {
  const t = useTranslations('lock');
  const tc = useTranslations('common');
  const [who, setWho] = useState<{ id: string; name: string } | null>(null);
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const pinRef = useRef<HTMLInputElement>(null);
  // Server-rendered buttons do nothing until React takes over: say when it has (tests wait for it).
  const hydrated = useHydrated();

  function choose(u: { id: string; name: string }) {
    setWho(u);
    setPin('');
    setError('');
    requestAnimationFrame(() => pinRef.current?.focus());
  }

  async function unlock(e: React.FormEvent) {
    e.preventDefault();
    if (!who || busy) return;
    setBusy(true);
    setError('');
    try {
      const r = await fetch('/api/auth/pin', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user_id: who.id, pin }),
      });
      if (r.ok) {
        window.location.assign('/pos');
        return;
      }
      setPin('');
      if (r.status === 401) setError(t('wrongPin'));
      else if (r.status === 429) setError(t('tooMany', { seconds: Number(r.headers.get('retry-after') ?? '1') }));
      else if (r.status === 403) setError(t('notTill'));
      else setError(tc('requestFailed', { status: r.status }));
    } catch {
      setError(tc('networkRetry'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className={l.lock} data-hydrated={hydrated ? '' : undefined}>
      <h1 className={l.title}>
        <span className={s.mark} aria-hidden="true">
          Ð
        </span>{' '}
        {t('title', { terminal })}
      </h1>
      {users.length === 0 ? (
        <p>{t('noUsers')}</p>
      ) : (
        <ul className={l.users} aria-label={t('whoIsServing')}>
          {users.map((u) => (
            <li key={u.id}>
              <button
                type="button"
                className={who?.id === u.id ? s.primary : s.secondary}
                aria-pressed={who?.id === u.id}
                onClick={() => choose(u)}
              >
                {u.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {who ? (
        <form className={l.pinForm} method="post" onSubmit={unlock}>
          <label htmlFor="lock-pin">{t('pin')}</label>
          <input
            id="lock-pin"
            ref={pinRef}
            className={l.pinInput}
            type="password"
            inputMode="numeric"
            autoComplete="off"
            pattern="[0-9]*"
            maxLength={8}
            value={pin}
            onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
            aria-describedby="lock-pin-error"
          />
          <button type="submit" className={s.primary} disabled={busy || pin.length < 4}>
            {t('unlock')}
          </button>
        </form>
      ) : null}
      <p id="lock-pin-error" role="alert" className={l.error}>
        {error}
      </p>
      <p>
        {/* A full load on purpose: the sign-in page starts from nothing the till held (docs/counter.md#the-lock-screen-and-pin-sign-in). */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a className={s.secondary} href="/login?next=%2Fpos">
          {t('usePassword')}
        </a>
      </p>
    </main>
  );
}
