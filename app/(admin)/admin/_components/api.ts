'use client';
// Client helpers for back-office mutations: JSON through csrfFetch, errors as messages.
import { csrfFetch } from '@/app/_lib/csrf-fetch';

export async function adminCall<T = unknown>(method: string, url: string, body?: unknown): Promise<{ ok: true; data: T } | { ok: false; message: string }> {
  try {
    const r = await csrfFetch(url, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await r.json().catch(() => null);
    if (!r.ok) return { ok: false, message: (data && data.message) || `request failed (${r.status})` };
    return { ok: true, data: data as T };
  } catch {
    return { ok: false, message: 'network error: try again' };
  }
}
