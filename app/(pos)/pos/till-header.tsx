'use client';
// The till's top bar, on the sale and the payment screens: the store's name and the device's
// everyday controls (Customer display, Lock) in view; the rest in its Menu (till-menu.tsx): who is
// signed in, the store select (a member of several stores), the back office (not for a cashier or
// a PIN sign-in), My shift, the payment sound, theme and language, registering this browser, and
// Sign out.
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { forgetKeptTill } from '@/app/_lib/kept-till';
import { LanguageSelect } from '@/app/_lib/language-select';
import { ThemeSwitch } from '@/app/_lib/theme-switch';
import { BellIcon } from './bits';
import { RegisterThisTill, TillDevice, type TillDeviceProps } from './till-device';
import { StoreSelect, TillMenu, type TillStore } from './till-menu';
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
  store,
  user,
  device,
  sound,
  onSound,
}: {
  store: { id: number; name: string; stores: TillStore[] };
  user: TillUser;
  device?: TillDeviceProps;
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
        <span title={store.name}>{store.name}</span>
      </h1>
      <div className={s.barRight}>
        {device ? <TillDevice {...device} /> : null}
        <TillMenu>
          <span className={s.who} title={tc('signedIn')}>
            {user.name}
          </span>
          {store.stores.length > 1 && !user.tillOnly ? <StoreSelect stores={store.stores} current={store.id} /> : null}
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
          <ThemeSwitch className={s.menuField} />
          <LanguageSelect signedIn className={s.ghost} />
          {device ? <RegisterThisTill {...device} /> : null}
          <button type="button" className={s.ghost} onClick={signOut}>
            {tc('signOut')}
          </button>
        </TillMenu>
      </div>
    </header>
  );
}
