// The rpc backend's fast mempool poll's schedule (lib/chain/rpc/mempool-poll.ts, docs/live.md#a-node-that-does-not-whitelist-counter)
// on fake timers: it polls once per interval while started and never after stop(); a failing
// node is asked less and less often, and as often as before once it answers; a stop() and start()
// while a round is in flight leaves one schedule, not two. Counts calls, never measures time.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MempoolPoller } from '@/lib/chain/rpc/mempool-poll';
import type { RpcMempoolWatch } from '@/lib/chain/rpc/mempool';

interface FakeWatch {
  polling: boolean;
  calls: number;
  failing: boolean;
  /** When set, each poll waits for it (a round in flight). */
  gate: Promise<void> | null;
  poll(): Promise<number>;
}

function fakeWatch(): FakeWatch {
  const w: FakeWatch = {
    polling: false,
    calls: 0,
    failing: false,
    gate: null,
    async poll() {
      w.calls++;
      if (w.gate) await w.gate;
      if (w.failing) throw new Error('node down');
      return 0;
    },
  };
  return w;
}

const poller = (w: FakeWatch, ms = 100) => new MempoolPoller(w as unknown as RpcMempoolWatch, ms);

afterEach(() => {
  vi.useRealTimers();
});

describe('MempoolPoller', () => {
  it('polls once per interval while started, and never after stop()', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const w = fakeWatch();
    const p = poller(w);
    p.start();
    expect(w.polling).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.calls).toBe(10);
    p.stop();
    expect(w.polling).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.calls).toBe(10);
  });

  it('interval 0 never polls', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const w = fakeWatch();
    poller(w, 0).start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.calls).toBe(0);
    expect(w.polling).toBe(false);
  });

  it('backs off while the node fails (doubling, at most 5 s apart), and resumes its interval once it answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const w = fakeWatch();
    w.failing = true;
    const p = poller(w);
    p.start();
    // Rounds at 100, 300, 700, 1500, 3100, 6300 ms, then every 5 s: 7 by 11.3 s, against 113 without back-off.
    await vi.advanceTimersByTimeAsync(11_300);
    expect(w.calls).toBe(7);
    w.failing = false;
    await vi.advanceTimersByTimeAsync(5_000); // the round that succeeds
    const before = w.calls;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.calls - before).toBe(10);
    p.stop();
  });

  it('a stop() and start() while a round is in flight leaves one schedule', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const w = fakeWatch();
    let release!: () => void;
    w.gate = new Promise((r) => (release = r));
    const p = poller(w);
    p.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(w.calls).toBe(1); // in flight
    p.stop();
    p.start();
    w.gate = null;
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.calls).toBe(11);
    p.stop();
  });
});
