'use client';
// The language control (docs/using-counter.md#languages): saved on the signed-in user (with the CSRF token), or on
// this browser only before sign-in; the page then reloads in the new language.
import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { LOCALES, LOCALE_NAMES } from '@/lib/i18n';
import { csrfFetch } from './csrf-fetch';

export function LanguageSelect({ signedIn, className }: { signedIn: boolean; className?: string }) {
  const t = useTranslations('common');
  const locale = useLocale();
  const [busy, setBusy] = useState(false);
  async function choose(next: string) {
    setBusy(true);
    const init = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ locale: next }) };
    const r = await (signedIn ? csrfFetch('/api/auth/locale', init) : fetch('/api/auth/locale', init)).catch(() => null);
    if (r?.ok) window.location.reload();
    else setBusy(false);
  }
  return (
    <select
      className={className}
      aria-label={t('language')}
      value={locale}
      disabled={busy}
      data-testid="language-select"
      onChange={(e) => void choose(e.target.value)}
    >
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LOCALE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}
