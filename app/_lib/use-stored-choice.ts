'use client';
// A choice remembered on this device (localStorage): the theme, the till's payment sound. Read as
// an external store, so the server's HTML and the hydrating render agree (nothing stored yet) and
// the stored choice shows right after; every component showing the choice follows a change.
// Where storage refuses (private mode), a choice still holds for this page.
import { useCallback, useSyncExternalStore } from 'react';

const CHANGED = 'counter-stored-choice';
const thisPage = new Map<string, string | null>();

function read(key: string): string | null {
  if (thisPage.has(key)) return thisPage.get(key) ?? null;
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function subscribe(changed: () => void) {
  window.addEventListener(CHANGED, changed);
  return () => window.removeEventListener(CHANGED, changed);
}

/** The stored text under `key` (null: nothing stored, and on the server), and its setter (null forgets it). */
export function useStoredChoice(key: string): [string | null, (value: string | null) => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => null,
  );
  const set = useCallback(
    (v: string | null) => {
      thisPage.set(key, v);
      try {
        if (v === null) localStorage.removeItem(key);
        else localStorage.setItem(key, v);
      } catch {
        /* not kept, still shown */
      }
      window.dispatchEvent(new Event(CHANGED));
    },
    [key],
  );
  return [value, set];
}
