'use client';
// The time for a payment's countdown, on the till and on the customer's checkout page.
import { useEffect, useState } from 'react';

/**
 * The time now (ms): `initial` for the first render (the server's clock, so a server-rendered
 * countdown hydrates without a mismatch), the browser's clock from mount, then every second while
 * `running(now)` holds (the payment can still be paid: a final one needs no countdown).
 */
export function useClock(initial: number | (() => number), running: (now: number) => boolean): number {
  const [now, setNow] = useState(initial);
  const ticking = running(now);
  useEffect(() => setNow(Date.now()), []);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
