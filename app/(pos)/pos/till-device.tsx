'use client';
// The till's device controls (docs/counter.md): on a registered terminal, Customer display (its
// pairing code), Lock and the idle lock
// (the store's till_lock_sec); on an unregistered browser, "Use this device as a till" for an
// owner or a manager (a Till name field and Register). Locking signs the session out and shows
// the lock screen; the sale that waits is on the server, so the next cashier can see it through.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { CustomerDisplayButton } from './customer-display-button';
import s from './pos.module.css';
import l from './lock/lock.module.css';

export interface TillDeviceProps {
  /** The registered terminal's name, or null on an unregistered browser. */
  terminal: string | null;
  canRegister: boolean;
  lockSec: number;
}

export function TillDevice({ terminal, canRegister, lockSec }: TillDeviceProps) {
  return terminal ? <><CustomerDisplayButton /><LockControls lockSec={lockSec} /></> : canRegister ? <RegisterTill /> : null;
}

function LockControls({ lockSec }: { lockSec: number }) {
  const t = useTranslations('lock');
  const locking = useRef(false);
  const lock = useCallback(async () => {
    if (locking.current) return;
    locking.current = true;
    await csrfFetch('/api/auth/logout', { method: 'POST', body: '{}' }).catch(() => null);
    window.location.assign('/pos/lock');
  }, []);
  useEffect(() => {
    if (!(lockSec > 0)) return;
    let timer = window.setTimeout(lock, lockSec * 1000);
    const reset = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(lock, lockSec * 1000);
    };
    const events = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
    for (const e of events) window.addEventListener(e, reset, { passive: true });
    return () => {
      window.clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, reset);
    };
  }, [lock, lockSec]);
  return <button type="button" className={s.ghost} onClick={lock}>{t('lock')}</button>;
}

function RegisterTill() {
  const t = useTranslations('lock');
  const tc = useTranslations('common');
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function register(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const r = await csrfFetch('/api/admin/terminals', { method: 'POST', body: JSON.stringify({ name }) });
      if (r.status === 201) {
        window.location.reload();
        return;
      }
      const b = await r.json().catch(() => ({}));
      setError(typeof b.message === 'string' ? b.message : tc('requestFailed', { status: r.status }));
    } catch {
      setError(tc('networkRetry'));
    } finally {
      setBusy(false);
    }
  }
  if (!open) return <button type="button" className={s.ghost} onClick={() => setOpen(true)}>{t('useAsTill')}</button>;
  return (
    <form className={l.registerForm} onSubmit={register}>
      <label htmlFor="till-name">{t('tillName')}</label>
      <input id="till-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} autoFocus aria-describedby="till-name-error" />
      <button type="submit" className={s.ghost} disabled={busy || !name.trim()}>{t('register')}</button>
      <span id="till-name-error" role="alert">{error}</span>
    </form>
  );
}
