'use client';
// Set a user's staff PIN (docs/counter.md#staff-pins): PUT /api/admin/users/<id>/pin. The PIN is
// typed in a password field and sent once; the server refuses weak ones (400 naming `pin`) and
// keeps only its hash. The owner sets anyone's, a manager a cashier's; others get the server's 403.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useAdminCall } from '../_components/api';
import { ActionButton, SubmitButton } from '@/app/_lib/action-button';

export function PinForm({
  userId,
  email,
  onDone,
}: {
  userId: string;
  email: string;
  onDone: (msg: { error: boolean; text: string }) => void;
}) {
  const t = useTranslations('adminUsers');
  const adminCall = useAdminCall();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <ActionButton className="btn bo-btn-sm" onClick={() => setOpen(true)}>
        {t('setPin')}
      </ActionButton>
    );
  return (
    <form
      className="bo-row"
      method="post"
      onSubmit={async (e) => {
        e.preventDefault();
        const el = e.currentTarget;
        const pin = String(new FormData(el).get('pin') ?? '');
        setBusy(true);
        const r = await adminCall('PUT', `/api/admin/users/${encodeURIComponent(userId)}/pin`, { pin });
        setBusy(false);
        if (!r.ok) return onDone({ error: true, text: r.message });
        el.reset();
        setOpen(false);
        onDone({ error: false, text: t('pinSet', { email }) });
      }}
    >
      <input
        name="pin"
        type="password"
        inputMode="numeric"
        autoComplete="new-password"
        pattern="[0-9]{4,8}"
        minLength={4}
        maxLength={8}
        required
        aria-label={t('pinFor', { email })}
        size={8}
      />
      <SubmitButton className="btn btn-primary bo-btn-sm" disabled={busy}>
        {t('savePin')}
      </SubmitButton>
      <ActionButton className="btn bo-btn-sm" onClick={() => setOpen(false)}>
        {t('cancel')}
      </ActionButton>
    </form>
  );
}
