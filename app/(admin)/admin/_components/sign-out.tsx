'use client';
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import { forgetKeptTill } from '@/app/_lib/kept-till';
import { ActionButton } from '@/app/_lib/action-button';

export function SignOutButton() {
  const t = useTranslations('common');
  const [busy, setBusy] = useState(false);
  return (
    <ActionButton
      className="btn bo-btn-sm"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await csrfFetch('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
        await forgetKeptTill(); // the till's service worker never sees a sign-out made here
        window.location.assign('/login');
      }}
    >
      {t('signOut')}
    </ActionButton>
  );
}
