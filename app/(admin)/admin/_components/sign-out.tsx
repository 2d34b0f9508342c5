'use client';
import { useState } from 'react';
import { csrfFetch } from '@/app/_lib/csrf-fetch';

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn bo-btn-sm"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await csrfFetch('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
        window.location.assign('/login');
      }}
    >
      Sign out
    </button>
  );
}
