import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_MAX_DELAY_MS,
  WEBHOOK_RETRY_WINDOW_MS,
  nextAttemptAt,
  nextAttemptDelayMs,
  webhookBackoffBaseMs,
} from '../../lib/webhooks/backoff';

const ZERO = () => 0;
const ALMOST_ONE = () => 1 - Number.EPSILON;
const HOUR = 3_600_000;

describe('webhook backoff', () => {
  it('has a monotone non-decreasing base that reaches and keeps the 1 h cap', () => {
    let prev = 0;
    for (let n = 1; n <= 200; n++) {
      const b = webhookBackoffBaseMs(n);
      expect(b).toBeGreaterThanOrEqual(prev);
      expect(b).toBeLessThanOrEqual(WEBHOOK_MAX_DELAY_MS);
      prev = b;
    }
    expect(WEBHOOK_MAX_DELAY_MS).toBe(HOUR);
    expect(webhookBackoffBaseMs(200)).toBe(HOUR);
    expect(webhookBackoffBaseMs(1_000_000)).toBe(HOUR);
    expect(webhookBackoffBaseMs(2)).toBe(2 * webhookBackoffBaseMs(1));
  });

  it('waits 10-30 s after the first attempt', () => {
    expect(nextAttemptDelayMs(1, ZERO)).toBe(10_000);
    expect(nextAttemptDelayMs(1, () => 0.5)).toBe(20_000);
    expect(nextAttemptDelayMs(1, ALMOST_ONE)).toBe(30_000);
  });

  it('stays within [base/2, min(cap, 1.5 base)] for random() = 0 and ≈ 1', () => {
    for (let n = 1; n <= 40; n++) {
      const base = webhookBackoffBaseMs(n);
      const lo = nextAttemptDelayMs(n, ZERO);
      const hi = nextAttemptDelayMs(n, ALMOST_ONE);
      expect(lo).toBe(Math.round(base / 2));
      expect(hi).toBe(Math.min(HOUR, Math.round(base * 1.5)));
      for (let i = 0; i < 20; i++) {
        const d = nextAttemptDelayMs(n, Math.random);
        expect(d).toBeGreaterThanOrEqual(lo);
        expect(d).toBeLessThanOrEqual(hi);
      }
    }
  });

  it('caps every delay at 1 h and never goes below 30 min once capped', () => {
    expect(nextAttemptDelayMs(50, ALMOST_ONE)).toBe(HOUR);
    expect(nextAttemptDelayMs(50, ZERO)).toBe(HOUR / 2);
  });

  it('treats odd attempt numbers and random values sanely', () => {
    expect(nextAttemptDelayMs(0, ZERO)).toBe(10_000);
    expect(nextAttemptDelayMs(-5, ZERO)).toBe(10_000);
    expect(nextAttemptDelayMs(Number.NaN, ZERO)).toBe(10_000);
    expect(nextAttemptDelayMs(1, () => -3)).toBe(10_000);
    expect(nextAttemptDelayMs(1, () => 7)).toBe(30_000);
    expect(nextAttemptDelayMs(1, () => Number.NaN)).toBe(20_000);
  });

  it('covers about 24 h with a bounded number of attempts, then gives up', () => {
    const created = new Date('2026-11-23T00:00:00.000Z');
    for (const [name, random] of [
      ['min', ZERO],
      ['max', ALMOST_ONE],
      ['mid', () => 0.5],
    ] as const) {
      let now = created;
      let attempts = 0;
      for (;;) {
        attempts++; // attempt made at `now`, and it failed
        const next = nextAttemptAt(created, attempts, now, random);
        if (!next) break;
        expect(next.getTime()).toBeGreaterThan(now.getTime());
        now = next;
        expect(attempts, name).toBeLessThan(100);
      }
      const lastAttemptAfter = now.getTime() - created.getTime();
      expect(lastAttemptAfter, name).toBeLessThanOrEqual(WEBHOOK_RETRY_WINDOW_MS);
      expect(lastAttemptAfter, name).toBeGreaterThan(WEBHOOK_RETRY_WINDOW_MS - HOUR);
      expect(attempts, name).toBeGreaterThanOrEqual(25);
      expect(attempts, name).toBeLessThanOrEqual(60);
    }
  });

  it('gives up when the next attempt would fall past the window, counting from creation', () => {
    const created = new Date('2026-11-23T00:00:00.000Z');
    const late = new Date(created.getTime() + WEBHOOK_RETRY_WINDOW_MS - 5_000);
    expect(nextAttemptAt(created, 1, late, ZERO)).toBeNull(); // 10 s > 5 s left
    const ok = new Date(created.getTime() + WEBHOOK_RETRY_WINDOW_MS - 10_000);
    expect(nextAttemptAt(created, 1, ok, ZERO)?.getTime()).toBe(created.getTime() + WEBHOOK_RETRY_WINDOW_MS);
    const old = new Date(created.getTime() + 2 * WEBHOOK_RETRY_WINDOW_MS);
    expect(nextAttemptAt(created, 1, old, ZERO)).toBeNull();
  });
});
