'use client';
// The display's pairing form (docs/counter.md#the-customers-display): a Pairing code field and
// Pair. Opened from the till's QR code (/display?code=…) it pairs at once. On success the page
// is loaded again without the code, and shows the till's cart.
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './display.module.css';

export function PairForm({ storeName, initialCode, unpaired = false }: { storeName: string; initialCode: string; unpaired?: boolean }) {
  const t = useTranslations('display');
  const tc = useTranslations('common');
  const [code, setCode] = useState(initialCode);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Pair waits for hydration (app/_lib/use-hydrated.ts): a tap on the server's HTML would submit
  // the form natively, reload the page and pair nothing.
  const hydrated = useHydrated();
  const auto = useRef(false);

  async function pair(value: string) {
    setBusy(true);
    setError('');
    try {
      const r = await fetch('/api/display/pair', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: value }),
      });
      if (r.ok) {
        window.location.replace('/display');
        return;
      }
      if (r.status === 429) setError(t('tooMany', { seconds: Number(r.headers.get('Retry-After')) || 1 }));
      else if (r.status === 401) setError(t('wrongCode'));
      else setError(tc('requestFailed', { status: r.status }));
    } catch {
      setError(tc('networkRetry'));
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (initialCode && !auto.current) {
      auto.current = true;
      void pair(initialCode);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialCode]);

  return (
    <main className={s.pairMain}>
      <h1 className={s.storeName}>{storeName}</h1>
      <h2 className={s.pairHeading}>{t('customerDisplay')}</h2>
      {unpaired ? (
        <p className={s.notice} role="status">
          {t('unpaired')}
        </p>
      ) : null}
      <p className={s.pairIntro}>{t('pairIntro')}</p>
      <form
        className={s.pairForm}
        onSubmit={(e) => {
          e.preventDefault();
          void pair(code);
        }}
      >
        <label htmlFor="pairing-code">{t('pairingCode')}</label>
        <input
          id="pairing-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          maxLength={40}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-describedby="pairing-error"
        />
        <button type="submit" className={s.primary} disabled={!hydrated || busy || !code.trim()}>
          {t('pair')}
        </button>
        <p id="pairing-error" className={s.error} role="alert">
          {error}
        </p>
      </form>
    </main>
  );
}
