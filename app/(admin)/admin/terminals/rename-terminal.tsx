'use client';
// Rename a till (docs/counter.md#terminals): PATCH /api/admin/terminals/<id> { name }. The new
// name is what the lock screen, receipts' terminal and the report's by_terminal show from now on;
// the server validates it (400 naming `name`) and keeps the change in the audit log.
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useAdminCall } from '../_components/api';
import { ActionButton, SubmitButton } from '@/app/_lib/action-button';

interface Named {
  id: string;
  name: string;
}

export function RenameTerminal<T extends Named>({
  terminal,
  onDone,
}: {
  terminal: T;
  onDone: (r: { ok: true; data: T } | { ok: false; message: string }) => void;
}) {
  const t = useTranslations('adminTerminals');
  const call = useAdminCall();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <ActionButton className="btn bo-btn-sm" onClick={() => setOpen(true)}>
        {t('rename')}
      </ActionButton>
    );
  return (
    <form
      className="bo-row"
      onSubmit={async (e) => {
        e.preventDefault();
        const name = String(new FormData(e.currentTarget).get('name') ?? '');
        setBusy(true);
        const r = await call<T>('PATCH', `/api/admin/terminals/${encodeURIComponent(terminal.id)}`, { name });
        setBusy(false);
        if (r.ok) setOpen(false);
        onDone(r);
      }}
    >
      <input
        name="name"
        defaultValue={terminal.name}
        required
        maxLength={60}
        autoComplete="off"
        aria-label={t('newName', { name: terminal.name })}
        size={16}
      />
      <SubmitButton className="btn btn-primary bo-btn-sm" disabled={busy}>
        {t('save')}
      </SubmitButton>
      <ActionButton className="btn bo-btn-sm" onClick={() => setOpen(false)}>
        {t('cancel')}
      </ActionButton>
    </form>
  );
}
