'use client';
// My PIN on My shift (docs/counter.md#staff-pins): every user sets their own till PIN with
// PUT /api/admin/users/<own id>/pin. The server refuses weak PINs (400 naming `pin`, shown as it
// is) and keeps only a hash. A PIN session cannot change it (the API asks for the password), so
// the page offers this form to password sessions only. Save waits for hydration (a tap before it
// would submit the form natively), and the form posts: a PIN never goes into a URL.
import { useState } from 'react';
import { useHydrated } from '@/app/_lib/use-hydrated';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';
import s from '../pos.module.css';
import c from '../cash.module.css';

export function MyPin({ userId }: { userId: string }) {
  const t = useTranslations('shift');
  const tc = useTranslations('common');
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null);
  return (
    <form
      className={c.panel}
      method="post"
      aria-label={t('myPin')}
      onSubmit={async (e) => {
        e.preventDefault();
        const el = e.currentTarget;
        const pin = String(new FormData(el).get('pin') ?? '');
        setBusy(true);
        setNote(null);
        try {
          const r = await csrfFetch(`/api/admin/users/${encodeURIComponent(userId)}/pin`, { method: 'PUT', body: JSON.stringify({ pin }) });
          if (r.ok) {
            el.reset();
            return setNote({ error: false, text: t('pinSaved') });
          }
          const data = await r.json().catch(() => ({}));
          setNote({ error: true, text: data.message ?? tc('requestFailed', { status: r.status }) });
        } catch {
          setNote({ error: true, text: tc('networkRetry') });
        } finally {
          setBusy(false);
        }
      }}
    >
      <label className={c.field}>
        <span>{t('newPin')}</span>
        <input
          name="pin"
          type="password"
          inputMode="numeric"
          autoComplete="new-password"
          pattern="[0-9]{4,8}"
          minLength={4}
          maxLength={8}
          required
        />
      </label>
      {note ? (
        <p className={note.error ? s.error : undefined} role={note.error ? 'alert' : 'status'}>
          {note.text}
        </p>
      ) : null}
      <div className={c.actions}>
        <button type="submit" className={s.primary} disabled={busy || !hydrated}>
          {t('savePin')}
        </button>
      </div>
    </form>
  );
}
