'use client';
// The till's top bar, on the sale and the payment screens: the store's name, the back office
// (not for a cashier or a PIN sign-in), My shift, the payment sound, theme and language, the
// device controls (Lock, registering this browser), who is signed in, and Sign out.
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { forgetKeptTill } from '@/app/_lib/kept-till';
import { LanguageSelect } from '@/app/_lib/language-select';
import { ThemeSwitch } from '@/app/_lib/theme-switch';
import { BellIcon } from './bits';
import s from './pos.module.css';

export interface TillUser {
  name: string;
  role: string;
  /** Signed in with a PIN (docs/counter.md), so no back-office link. */
  tillOnly?: boolean;
}

async function signOut() {
  await csrfFetch('/api/auth/logout', { method: 'POST', body: '{}' }).catch(() => null);
  // The kept till must not outlive the session (app/_lib/kept-till.ts).
  await forgetKeptTill();
  window.location.assign('/login');
}

export function TillHeader({
  storeName,
  user,
  device,
  sound,
  onSound,
}: {
  storeName: string;
  user: TillUser;
  device?: React.ReactNode;
  sound: boolean;
  onSound: (on: boolean) => void;
}) {
  const t = useTranslations('till');
  const tc = useTranslations('common');
  return (
    <header className={s.bar}>
      <h1 className={s.brand}>
        <span className={s.mark} aria-hidden="true">
          Ð
        </span>
        <span>{storeName}</span>
      </h1>
      <div className={s.barRight}>
        {user.role !== 'cashier' && !user.tillOnly ? (
          <Link className={s.ghost} href="/admin">
            {tc('backOffice')}
          </Link>
        ) : null}
        <Link className={s.ghost} href="/pos/shift">
          {tc('myShift')}
        </Link>
        <button
          type="button"
          className={s.ghost}
          aria-pressed={sound}
          aria-label={sound ? t('soundOn') : t('soundOff')}
          onClick={() => onSound(!sound)}
          title={t('paymentSound')}
        >
          <BellIcon off={!sound} />
          <span className={s.soundText}>{sound ? t('soundOn') : t('soundOff')}</span>
        </button>
        <ThemeSwitch className={s.langTop} />
        <LanguageSelect signedIn className={`${s.ghost} ${s.langTop}`} />
        {device}
        <span className={s.who} title={tc('signedIn')}>
          {user.name}
        </span>
        <button type="button" className={s.ghost} onClick={signOut}>
          {tc('signOut')}
        </button>
      </div>
    </header>
  );
}
