'use client';
// Whether React has hydrated this page. The till's server HTML arrives before its script on a slow
// tablet; a tap in between would do nothing and the sale would silently miss an item. So the sale
// controls render disabled until hydration and become live with it (docs/using-counter.md#the-till-pos).
// useSyncExternalStore answers the server snapshot (false) while hydrating and true afterwards; a
// component first mounted on the client (the sale screen again after New sale) is true at once.
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
