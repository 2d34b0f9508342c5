'use client';
// The till's device controls (docs/counter.md): on a registered terminal, Customer display (its
// pairing code), Lock and the idle lock (the store's till_lock_sec), in the bar; on an
// unregistered browser, "Use this device as a till" for an owner or a manager (a Till name field
// and Register), in the till's Menu. Locking signs the session out and shows
// the lock screen only once the server confirmed it (use-lock.ts); the sale that waits is on the
// server, so the next cashier can see it through.
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { CustomerDisplayButton } from './customer-display-button';
import { useLock } from './use-lock';
import s from './pos.module.css';
import l from './lock/lock.module.css';

export interface TillDeviceProps {
  /** The registered terminal's name, or null on an unregistered browser. */
  terminal: string | null;
  canRegister: boolean;
  lockSec: number;
}

/** The bar's part: on a registered terminal, Customer display and Lock, used all day. */
export function TillDevice({ terminal, lockSec }: TillDeviceProps) {
  return terminal ? (
    <>
      <CustomerDisplayButton />
      <LockControls lockSec={lockSec} />
    </>
  ) : null;
}

/** The Menu's part: registering this browser, done once. */
export function RegisterThisTill({ terminal, canRegister }: TillDeviceProps) {
  return !terminal && canRegister ? <RegisterTill /> : null;
}

function LockControls({ lockSec }: { lockSec: number }) {
  const t = useTranslations('lock');
  const { state, lock } = useLock();
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
  return (
    <>
      <button type="button" className={s.ghost} onClick={lock}>
        {t('lock')}
      </button>
      {state !== 'open' && <LockingDialog text={state === 'offline' ? t('lockOffline') : t('locking')} />}
    </>
  );
}

// A modal over the whole till while the sign-out is under way: the page behind is inert, so
// nothing can be sold from it; Escape does not close it.
function LockingDialog({ text }: { text: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  });
  return (
    <dialog
      ref={ref}
      className={l.locking}
      data-testid="till-locking"
      onCancel={(e) => e.preventDefault()}
      onClose={(e) => e.currentTarget.showModal()}
    >
      <p role="alert">{text}</p>
    </dialog>
  );
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
  if (!open)
    return (
      <button type="button" className={s.ghost} onClick={() => setOpen(true)}>
        {t('useAsTill')}
      </button>
    );
  return (
    <form className={l.registerForm} onSubmit={register}>
      <label htmlFor="till-name">{t('tillName')}</label>
      <input
        id="till-name"
        value={name}
        maxLength={60}
        onChange={(e) => setName(e.target.value)}
        autoFocus
        aria-describedby="till-name-error"
      />
      <button type="submit" className={s.ghost} disabled={busy || !name.trim()}>
        {t('register')}
      </button>
      <span id="till-name-error" role="alert">
        {error}
      </span>
    </form>
  );
}
