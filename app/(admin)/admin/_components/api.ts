'use client';
// Client helpers for back-office mutations: JSON through csrfFetch, errors as messages. The API's
// own message is shown as it is (data, not translated); our fallbacks speak the user's language.
import { useCallback } from 'react';
import { useTranslations } from 'next-intl';
import { csrfFetch } from '@/app/_lib/csrf-fetch';

type Result<T> = { ok: true; data: T } | { ok: false; message: string };
type Fallbacks = { failed: (status: number) => string; network: string };

const ENGLISH: Fallbacks = { failed: (status) => `request failed (${status})`, network: 'network error: try again' };

export async function adminCall<T = unknown>(method: string, url: string, body?: unknown, texts: Fallbacks = ENGLISH): Promise<Result<T>> {
  try {
    const r = await csrfFetch(url, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await r.json().catch(() => null);
    if (!r.ok) return { ok: false, message: (data && data.message) || texts.failed(r.status) };
    return { ok: true, data: data as T };
  } catch {
    return { ok: false, message: texts.network };
  }
}

/** adminCall with its fallback messages in the user's language. */
export function useAdminCall() {
  const t = useTranslations('common');
  return useCallback(
    <T = unknown>(method: string, url: string, body?: unknown) =>
      adminCall<T>(method, url, body, { failed: (status) => t('requestFailed', { status }), network: t('networkRetry') }),
    [t],
  );
}
