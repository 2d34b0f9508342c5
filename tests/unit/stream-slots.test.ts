// The anonymous checkout streams' budget inside the process's (lib/live/stream-slots.ts,
// docs/security.md): per payment, per client address (IPv6 by /64) and in all, never taking the
// slots kept for signed-in streams; every map empties once the streams close.
import { describe, expect, it } from 'vitest';
import { StreamSlots, clientStreamKey, streamLimitsFromEnv, DEFAULT_CHECKOUT_STREAMS_PER_CLIENT } from '@/lib/live/stream-slots';

const granted = (g: ReturnType<StreamSlots['acquire']>) => {
  if (!g.ok) throw new Error(`refused: ${g.reason}`);
  return g;
};

describe('anonymous stream slots', () => {
  it('keeps MAX_STREAMS − MAX_CHECKOUT_STREAMS for signed-in streams, whatever anonymous clients open', () => {
    const s = new StreamSlots(10, 10, 4, 2);
    const anon = ['10.0.0.1', '10.0.0.1', '10.0.0.2', '10.0.0.2'].map((a, i) => granted(s.acquireAnonymous(`checkout:p${i}`, a)));
    expect(s.acquireAnonymous('checkout:p9', '10.0.0.3')).toEqual({ ok: false, reason: 'checkout' });
    const tills = Array.from({ length: 6 }, (_, i) => granted(s.acquire(`key:${i}`)));
    expect(s.open).toBe(10);
    expect(s.acquire('key:x')).toEqual({ ok: false, reason: 'process' });
    // Signed-in streams may take room the anonymous ones left free, never the other way round.
    anon[0].release();
    expect(s.acquireAnonymous('checkout:p9', '10.0.0.3').ok).toBe(true);
    for (const g of [...anon, ...tills]) g.release();
  });

  it('caps one address (an IPv6 client by its /64) with reason "client", and one payment with "user"', () => {
    const s = new StreamSlots(100, 10, 50, 3);
    for (let i = 0; i < 3; i++) granted(s.acquireAnonymous(`checkout:p${i}`, `2001:db8:1:2::${i + 1}`));
    expect(s.acquireAnonymous('checkout:p9', '2001:db8:1:2:ffff::9')).toEqual({ ok: false, reason: 'client' });
    expect(s.acquireAnonymous('checkout:p9', '2001:db8:1:3::1').ok).toBe(true); // another /64
    expect(s.openForClient('2001:0db8:0001:0002:0:0:0:7')).toBe(3);
    for (let i = 0; i < 10; i++) granted(s.acquireAnonymous('checkout:one', `192.0.2.${i}`));
    expect(s.acquireAnonymous('checkout:one', '192.0.2.200')).toEqual({ ok: false, reason: 'user' });
  });

  it('forgets every key once the last stream closes (released once each)', () => {
    const s = new StreamSlots(1000, 10, 500, 20);
    const held = Array.from({ length: 300 }, (_, i) => granted(s.acquireAnonymous(`checkout:p${i % 40}`, `198.51.100.${i % 17}`)));
    held.push(...Array.from({ length: 30 }, (_, i) => granted(s.acquire(`user:${i % 4}`))));
    expect(s.keysHeld).toBe(40 + 17 + 4);
    for (const g of held) {
      g.release();
      g.release();
    }
    expect([s.open, s.openAnonymous, s.keysHeld]).toEqual([0, 0, 0]);
  });
});

describe('client keys and limits from the environment', () => {
  it('keys IPv4 as is and IPv6 by its first 64 bits', () => {
    expect(clientStreamKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientStreamKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientStreamKey('2001:0DB8:0000:0005:1:2:3:4')).toBe('2001:db8:0:5::/64');
    expect(clientStreamKey('::1')).toBe('0:0:0:0::/64');
    expect(clientStreamKey('1::3:4:5:6:1.2.3.4')).toBe('1:0:3:4::/64');
    expect(clientStreamKey('unknown')).toBe('unknown');
  });

  it('defaults to a quarter of MAX_STREAMS, held below it, with 20 per address', () => {
    expect(streamLimitsFromEnv({})).toEqual({
      maxStreams: 2000,
      maxCheckoutStreams: 500,
      checkoutPerClient: DEFAULT_CHECKOUT_STREAMS_PER_CLIENT,
    });
    expect(DEFAULT_CHECKOUT_STREAMS_PER_CLIENT).toBe(20);
    expect(streamLimitsFromEnv({ MAX_STREAMS: '40' }).maxCheckoutStreams).toBe(10);
    expect(streamLimitsFromEnv({ MAX_STREAMS: '8', MAX_CHECKOUT_STREAMS: '3', MAX_CHECKOUT_STREAMS_PER_CLIENT: '2' })).toEqual({
      maxStreams: 8,
      maxCheckoutStreams: 3,
      checkoutPerClient: 2,
    });
    expect(streamLimitsFromEnv({ MAX_STREAMS: '8', MAX_CHECKOUT_STREAMS: '8' }).maxCheckoutStreams).toBe(7);
    expect(streamLimitsFromEnv({ MAX_CHECKOUT_STREAMS: '0' }).maxCheckoutStreams).toBe(0);
    expect(streamLimitsFromEnv({ MAX_CHECKOUT_STREAMS: 'many', MAX_CHECKOUT_STREAMS_PER_CLIENT: '0' })).toMatchObject({
      maxCheckoutStreams: 500,
      checkoutPerClient: 20,
    });
  });
});
