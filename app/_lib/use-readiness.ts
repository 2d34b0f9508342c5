'use client';
// Whether the store can take money, as /api/health says (docs/operations.md#readiness), polled
// through SWR: the till's Charge and the back office's checklist read the same key, so one page
// never asks twice. /api/health answers 503 with the same body when not ready.
import { usePoll } from './swr';

export interface Readiness {
  ready: boolean;
  /** Problem codes (lib/readiness), empty when ready. */
  codes: string[];
}

/** The problems' codes of a body that says ready or not (a refused charge's 503 body included). */
export function problemCodes(body: unknown): string[] {
  const x = body as { problems?: unknown };
  return Array.isArray(x?.problems) ? x.problems.map((p) => String((p as { code?: unknown })?.code ?? '')).filter(Boolean) : [];
}

function fromBody(b: unknown): Readiness | null {
  const x = b as { ready?: unknown };
  if (typeof x?.ready !== 'boolean' || !Array.isArray((b as { problems?: unknown }).problems)) return null;
  return { ready: x.ready, codes: problemCodes(b) };
}

async function readReadiness(url: string): Promise<Readiness> {
  const r = await fetch(url, { cache: 'no-store' });
  return fromBody(await r.json()) ?? Promise.reject(new Error(`unreadable /api/health (${r.status})`));
}

/** Polls every `notReadyMs` while not ready (so it unlocks by itself), every `readyMs` once ready. */
export function useReadiness(initial: Readiness | undefined, notReadyMs: number, readyMs: number) {
  return usePoll<Readiness | undefined>('/api/health', initial, {
    read: readReadiness,
    refreshInterval: (cur) => (cur?.ready ? readyMs : notReadyMs),
    compare: (a, b) => a?.ready === b?.ready && a?.codes.join() === b?.codes.join(),
  });
}
