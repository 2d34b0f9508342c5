'use client';
// The time for a payment's countdown, on the till and on the customer's checkout page.
import { useEffect, useState, useSyncExternalStore } from 'react';

/** One component's clock: the browser's time when read, moved on by `start` every second until stopped. */
function browserClock() {
  let now = Date.now();
  const listeners = new Set<() => void>();
  return {
    subscribe(changed: () => void) {
      listeners.add(changed);
      return () => void listeners.delete(changed);
    },
    read: () => now,
    start() {
      const tick = () => {
        now = Date.now();
        listeners.forEach((changed) => changed());
      };
      tick();
      const timer = setInterval(tick, 1000);
      return () => clearInterval(timer);
    },
  };
}

/**
 * The time now (ms): `initial` while hydrating (the server's clock, so a server-rendered
 * countdown hydrates without a mismatch), the browser's clock from mount, then every second while
 * `running(now)` holds (the payment can still be paid: a final one needs no countdown).
 */
export function useClock(initial: number | (() => number), running: (now: number) => boolean): number {
  const [serverNow] = useState(initial);
  const [clock] = useState(browserClock);
  const now = useSyncExternalStore(clock.subscribe, clock.read, () => serverNow);
  const ticking = running(now);
  useEffect(() => (ticking ? clock.start() : undefined), [ticking, clock]);
  return now;
}
