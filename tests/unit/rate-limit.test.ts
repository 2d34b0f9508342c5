import { describe, expect, it } from 'vitest';
import { RateLimiter, rateLimitConfig, clientKey, groupForPath } from '@/lib/api/rate-limit';

describe('rate limiter (token bucket)', () => {
  it('allows the burst, then answers with the seconds to wait, and refills at the rate', () => {
    let t = 0;
    const l = new RateLimiter({ rps: 2, burst: 3 }, 100, () => new Date(t));
    expect([l.take('a'), l.take('a'), l.take('a')]).toEqual([0, 0, 0]);
    expect(l.take('a')).toBe(1);
    expect(l.take('b')).toBe(0); // per key
    t += 500; // one token back
    expect(l.take('a')).toBe(0);
    expect(l.take('a')).toBe(1);
    t += 10_000;
    expect([l.take('a'), l.take('a'), l.take('a'), l.take('a')]).toEqual([0, 0, 0, 1]);
  });

  it('gives a longer Retry-After at slow rates', () => {
    const l = new RateLimiter({ rps: 0.1, burst: 1 }, 10, () => new Date(0));
    expect(l.take('k')).toBe(0);
    expect(l.take('k')).toBe(10);
  });

  it('is off at rps 0', () => {
    const l = new RateLimiter({ rps: 0, burst: 1 }, 10, () => new Date(0));
    for (let i = 0; i < 100; i++) expect(l.take('k')).toBe(0);
  });

  it('bounds its memory: never more than maxKeys buckets', () => {
    let t = 0;
    const l = new RateLimiter({ rps: 1, burst: 5 }, 100, () => new Date(t));
    for (let i = 0; i < 1000; i++) {
      l.take(`k${i}`);
      t += 1;
      expect(l.size).toBeLessThanOrEqual(100);
    }
  });

  it('reads its configuration from the environment with sane fallbacks', () => {
    expect(rateLimitConfig({})).toEqual({ rps: 300, burst: 600 });
    expect(rateLimitConfig({ RATE_LIMIT_RPS: '5', RATE_LIMIT_BURST: '10' })).toEqual({ rps: 5, burst: 10 });
    expect(rateLimitConfig({ RATE_LIMIT_RPS: '0' }).rps).toBe(0);
    expect(rateLimitConfig({ RATE_LIMIT_RPS: 'lots', RATE_LIMIT_BURST: '-1' })).toEqual({ rps: 300, burst: 600 });
  });

  it('keys clients by their address, never by a client-written X-Forwarded-For, and groups by path', () => {
    // Without TRUST_PROXY the header is not believed (lib/api/client-address.ts; the socket peer
    // is stamped on real requests, tests/unit/web-hardening.test.ts).
    expect(clientKey(new Request('http://x/', { headers: { 'x-forwarded-for': ' 10.0.0.1 , 127.0.0.1' } }))).toBe('unknown');
    expect(clientKey(new Request('http://x/'))).toBe('unknown');
    expect(groupForPath('/relay/pay')).toBe('relay');
    expect(groupForPath('/api/v1/payments')).toBe('api');
    expect(groupForPath('/invoices/D123')).toBe('invoices');
    expect(groupForPath('/api/health')).toBeNull();
    expect(groupForPath('/dc/abc')).toBeNull();
  });
});
