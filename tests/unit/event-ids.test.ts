// Vendor event ids (lib/payments/events.ts): drawn from a pooled random buffer, so the pool's
// refills must never repeat or shorten an id.
import { describe, expect, it } from 'vitest';
import { newEventId } from '@/lib/payments';

describe('newEventId', () => {
  it('gives distinct, well-formed ids across several pool refills', () => {
    const ids = Array.from({ length: 2000 }, () => newEventId());
    for (const id of ids) expect(id).toMatch(/^evt_[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // No two ids share their random part's first half either (a pool reused from its start would).
    expect(new Set(ids.map((i) => i.slice(4, 12))).size).toBe(ids.length);
  });
});
