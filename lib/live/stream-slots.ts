// Caps on open live update streams (docs/api.md#live-updates): at most 10 per user
// (an API key, or a signed-in user across all its sessions) and MAX_STREAMS per process
// (default 2,000). A slot is taken before a stream opens and given back when it closes, for
// whatever reason. The counts are this process's own: with several web processes each one
// enforces its caps.
import { z } from 'zod';

export const STREAMS_PER_USER = 10;
export const DEFAULT_MAX_STREAMS = 2000;

/** MAX_STREAMS from the environment; a missing or invalid value gives the default. */
export function maxStreamsFromEnv(env: Record<string, string | undefined> = process.env): number {
  const v = z.coerce.number().int().min(1).max(1_000_000).safeParse(env.MAX_STREAMS?.trim() || undefined);
  return v.success ? v.data : DEFAULT_MAX_STREAMS;
}

export type SlotGrant = { ok: true; release(): void } | { ok: false; reason: 'user' | 'process' };

export class StreamSlots {
  private total = 0;
  private readonly byUser = new Map<string, number>();

  constructor(readonly maxStreams = DEFAULT_MAX_STREAMS, readonly perUser = STREAMS_PER_USER) {}

  get open(): number {
    return this.total;
  }

  openFor(user: string): number {
    return this.byUser.get(user) ?? 0;
  }

  /** Takes a slot for `user` (e.g. "key:<id>" or "user:<id>"); release() is idempotent. */
  acquire(user: string): SlotGrant {
    const mine = this.openFor(user);
    if (mine >= this.perUser) return { ok: false, reason: 'user' };
    if (this.total >= this.maxStreams) return { ok: false, reason: 'process' };
    this.byUser.set(user, mine + 1);
    this.total++;
    let held = true;
    return {
      ok: true,
      release: () => {
        if (!held) return;
        held = false;
        this.total--;
        const n = (this.byUser.get(user) ?? 1) - 1;
        if (n <= 0) this.byUser.delete(user);
        else this.byUser.set(user, n);
      },
    };
  }
}

const g = globalThis as { __counterStreamSlots?: StreamSlots };

/** This process's slots (MAX_STREAMS read on first use). */
export function streamSlots(): StreamSlots {
  return (g.__counterStreamSlots ??= new StreamSlots(maxStreamsFromEnv()));
}
