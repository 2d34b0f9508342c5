'use client';
// The till's Menu (docs/using-counter.md#the-tills-header-and-its-menu): one button that discloses what a cashier
// does not need for every sale, so the bar keeps the store's name and the sale's own controls in
// view at 1024×768 and on a phone. A disclosure, not an ARIA menu: it holds selects and a form,
// which a role="menu" may not. Escape and a tap outside close it; Escape gives the focus back.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import s from './pos.module.css';

export function TillMenu({ children }: { children: React.ReactNode }) {
  const t = useTranslations('till');
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (wrap.current && !wrap.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  function onKeyDown(e: React.KeyboardEvent) {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    setOpen(false);
    button.current?.focus();
  }

  return (
    <div className={s.menuWrap} ref={wrap} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className={s.ghost}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <MenuIcon />
        <span>{t('menu')}</span>
      </button>
      <div id={panelId} className={s.menuPanel} hidden={!open} data-testid="till-menu">
        {children}
      </div>
    </div>
  );
}

function MenuIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className={s.menuIcon}>
      <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export interface TillStore {
  id: number;
  name: string;
}

/** The stores this user belongs to: switching one reloads the till for it (the session keeps its CSRF token). */
export function StoreSelect({ stores, current }: { stores: TillStore[]; current: number }) {
  const t = useTranslations('till');
  const tc = useTranslations('common');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function choose(id: number) {
    setBusy(true);
    setError('');
    const r = await csrfFetch('/api/auth/store', { method: 'POST', body: JSON.stringify({ store_id: id }) }).catch(() => null);
    if (r?.status === 204) return window.location.reload();
    setBusy(false);
    setError(r ? tc('requestFailed', { status: r.status }) : tc('networkRetry'));
  }
  return (
    <label className={s.menuField}>
      <span>{t('store')}</span>
      <select value={current} disabled={busy} onChange={(e) => void choose(Number(e.target.value))}>
        {stores.map((st) => (
          <option key={st.id} value={st.id}>
            {st.name}
          </option>
        ))}
      </select>
      {error ? <span role="alert">{error}</span> : null}
    </label>
  );
}
