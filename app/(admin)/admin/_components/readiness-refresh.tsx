'use client';
// Re-renders the back office's overview when the store's readiness changes (polls /api/health
// every 5 s while the checklist is shown), so the dashboard appears by itself once ready.
import { useEffect } from 'react';
import { useRouter } from 'next/navigation';

export function ReadinessRefresh() {
  const router = useRouter();
  useEffect(() => {
    let last: string | null = null;
    const t = setInterval(async () => {
      try {
        const b = await (await fetch('/api/health', { cache: 'no-store' })).json();
        const now = JSON.stringify([b.ready, (b.problems ?? []).map((p: { code: string }) => p.code)]);
        if (last !== null && now !== last) router.refresh();
        last = now;
      } catch {
        /* offline: try again on the next tick */
      }
    }, 5_000);
    return () => clearInterval(t);
  }, [router]);
  return null;
}
