'use client';
// Re-renders the back office's overview when the store's readiness changes (polls /api/health
// every 5 s while the checklist is shown), so the dashboard appears by itself once ready.
import { useEffect, useRef } from 'react';
import { useRouter } from 'next/navigation';
import { useReadiness } from '@/app/_lib/use-readiness';

const RECHECK_MS = 5_000;

export function ReadinessRefresh() {
  const router = useRouter();
  const { data } = useReadiness(undefined, RECHECK_MS, RECHECK_MS);
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (!data) return;
    const now = JSON.stringify([data.ready, data.codes]);
    if (last.current !== null && now !== last.current) router.refresh();
    last.current = now;
  }, [data, router]);
  return null;
}
