'use client';
// The web app's reads and polls go through SWR (one kept library instead of hand-made
// setInterval loops): a key read by several components is fetched once (deduped), a failed read
// is retried with back-off, a hidden tab stops polling, and a read coming back online or to the
// foreground is fresh again. Mutations keep going through csrfFetch.
import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';

/** A read answered with a status other than 2xx. */
export class ReadError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`read failed with ${status}`);
  }
}

/** GET (or a POST that only reads, like /relay/status) as JSON; a non-2xx answer throws ReadError. */
export async function readJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const r = await fetch(url, { cache: 'no-store', ...init });
  const body: unknown = await r.json().catch(() => null);
  if (!r.ok) throw new ReadError(r.status, body);
  return body as T;
}

/** A refused read (4xx but timeouts and throttling) is not retried: asking again changes nothing. */
function retryable(e: unknown): boolean {
  return !(e instanceof ReadError) || e.status >= 500 || e.status === 408 || e.status === 429;
}

/** The longest wait between two retries of a failing poll: a till must notice Counter is back. */
const MAX_RETRY_MS = 30_000;

/**
 * The defaults every poll shares: no refetch on a mere focus change (polls bring news); a failed
 * read is retried with exponential back-off from the poll's own interval, capped, and never given
 * up (SWR stops its interval while a key is in error, so the retries are what brings it back).
 */
export const POLL_DEFAULTS: SWRConfiguration = {
  revalidateOnFocus: false,
  revalidateIfStale: false,
  keepPreviousData: true,
  onErrorRetry: (err, _key, config, revalidate, { retryCount }) => {
    if (!retryable(err)) return;
    const base = config.refreshInterval && typeof config.refreshInterval === 'number' ? config.refreshInterval : config.errorRetryInterval;
    setTimeout(() => void revalidate({ retryCount }), Math.min(base * 2 ** Math.min(retryCount - 1, 8), MAX_RETRY_MS));
  },
};

/**
 * A JSON resource re-read every `refreshInterval` (0: read once), seeded with what the page
 * rendered. `read` replaces the plain JSON read where the answer needs shaping (a 503 that still
 * carries the body, say).
 */
export function usePoll<T>(
  url: string | null,
  fallbackData: T,
  { read, ...config }: SWRConfiguration<T> & { read?: (url: string) => Promise<T> },
): SWRResponse<T, unknown> {
  return useSWR<T>(url, read ?? ((u: string) => readJson<T>(u)), { ...POLL_DEFAULTS, fallbackData, ...config });
}
