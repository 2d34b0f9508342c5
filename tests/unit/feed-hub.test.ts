// The shared reader behind the live update streams (lib/live/feed-hub.ts) and the stream caps
// (lib/live/stream-slots.ts), against an in-memory source that counts its queries.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FeedHub, paymentProbeState, type FeedSource, type FeedWatcher } from '@/lib/live/feed-hub';
import type { FeedProbe } from '@/lib/live/feed-probe';
import type { ChangeFeed, ChangeSubscriber } from '@/lib/live/payment-changes';
import { paymentEventStream } from '@/lib/live/payment-feed';
import { StreamSlots, maxStreamsFromEnv, DEFAULT_MAX_STREAMS } from '@/lib/live/stream-slots';
import { sleep } from '../helpers/wait';

async function waitFor(ok: () => boolean, ms = 2_000) {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await sleep(2);
}
const probe = (status = 'unpaid', updated = 1): FeedProbe => ({
  status,
  confirmations: 0,
  txid: null,
  broadcastState: 'none',
  updatedAt: new Date(updated),
  expiresAt: new Date(9e15),
});

/** A table of payments; records each query's ids. */
function table() {
  const rows = new Map<string, FeedProbe>();
  const probeQueries: string[][] = [];
  const viewQueries: string[][] = [];
  let failing = false;
  const source: FeedSource<{ id: string; status: string }> = {
    async probes(ids) {
      probeQueries.push([...ids]);
      if (failing) throw new Error('db down');
      return new Map(ids.filter((id) => rows.has(id)).map((id) => [id, rows.get(id)!]));
    },
    async views(ids) {
      viewQueries.push([...ids]);
      return new Map(ids.filter((id) => rows.has(id)).map((id) => [id, { id, status: rows.get(id)!.status }]));
    },
    state: paymentProbeState,
  };
  return { rows, probeQueries, viewQueries, source, fail: (on: boolean) => (failing = on) };
}

function recorder() {
  const seen: string[] = [];
  const w: FeedWatcher<{ id: string; status: string }> = {
    view: (v) => seen.push(`view:${v.status}`),
    checked: (final) => final && seen.push('final'),
    gone: () => seen.push('gone'),
    failed: () => seen.push('failed'),
  };
  return { seen, w };
}

describe('feed hub (one shared poller)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('serves many watchers of many payments with one query per round, and views only on change', async () => {
    vi.useFakeTimers();
    const t = table();
    for (let i = 0; i < 50; i++) t.rows.set(`p${i}`, probe());
    const hub = new FeedHub(t.source, { pollMs: 20 });
    const recs = Array.from({ length: 200 }, () => recorder());
    const stops = recs.map((r, i) => hub.watch(`p${i % 50}`, r.w));
    expect(hub.watchers).toBe(200);
    await vi.advanceTimersByTimeAsync(1);
    // Every watcher got the current view at once; the new watchers were served by one round together.
    expect(recs.every((r) => r.seen.join() === 'view:unpaid')).toBe(true);
    expect(t.probeQueries).toHaveLength(1);
    expect(t.probeQueries[0]).toHaveLength(50);
    expect(t.viewQueries).toHaveLength(1);
    expect(t.viewQueries[0]).toHaveLength(50);
    await vi.advanceTimersByTimeAsync(100);
    // Regular rounds every 20 ms, one query each for all 50 payments; nothing changed, no views.
    expect(t.probeQueries.length).toBe(6);
    expect(t.probeQueries.every((q) => q.length === 50)).toBe(true);
    expect(t.viewQueries).toHaveLength(1);

    // A change to one payment: one view query with that payment only, sent to its 4 watchers.
    t.rows.set('p3', probe('accepted', 2));
    await vi.advanceTimersByTimeAsync(20);
    expect(t.viewQueries.slice(1)).toEqual([['p3']]);
    expect(recs.filter((r) => r.seen.includes('view:accepted'))).toHaveLength(4);

    // A final state is reported; the payment's removal is reported as gone.
    t.rows.set('p4', probe('confirmed', 3));
    t.rows.delete('p5');
    await vi.advanceTimersByTimeAsync(20);
    expect(recs[4].seen).toEqual(['view:unpaid', 'view:confirmed', 'final']);
    expect(recs[5].seen).toEqual(['view:unpaid', 'gone']);

    // Nobody watching: no more rounds.
    for (const s of stops) s();
    for (const s of stops) s(); // idempotent
    expect(hub.watchers).toBe(0);
    const at = t.probeQueries.length;
    await vi.advanceTimersByTimeAsync(200);
    expect(t.probeQueries.length).toBe(at);
  });

  it('waits as long as a slow round took before the next one', async () => {
    vi.useFakeTimers();
    const t = table();
    t.rows.set('a', probe());
    const slow: FeedSource<{ id: string; status: string }> = {
      probes: async (ids) => {
        await new Promise((r) => setTimeout(r, 100)); // a round that takes 100 ms
        return t.source.probes(ids);
      },
      views: t.source.views,
      state: paymentProbeState,
    };
    const hub = new FeedHub(slow, { pollMs: 20 });
    const stop = hub.watch('a', recorder().w);
    await vi.advanceTimersByTimeAsync(1_000);
    // Without the back-off it would be ~8 rounds (100 + 20 ms each); with it ~5 (100 + 100).
    expect(t.probeQueries.length).toBeGreaterThanOrEqual(4);
    expect(t.probeQueries.length).toBeLessThanOrEqual(6);
    stop();
  });

  it('a watcher joining later gets the current view at once, without waiting for the next round', async () => {
    const t = table();
    t.rows.set('a', probe('accepted', 5));
    const hub = new FeedHub(t.source, { pollMs: 10_000 });
    const first = recorder();
    const stopFirst = hub.watch('a', first.w);
    await waitFor(() => first.seen.length > 0);
    expect(first.seen).toEqual(['view:accepted']);
    const second = recorder();
    const stopSecond = hub.watch('a', second.w);
    await waitFor(() => second.seen.length > 0);
    await sleep(20);
    expect(second.seen).toEqual(['view:accepted']);
    expect(first.seen).toEqual(['view:accepted']); // not sent again to the first
    expect(t.probeQueries).toEqual([['a'], ['a']]);
    stopFirst();
    stopSecond();
  });

  it('reports failed rounds to every watcher and does not retry in a tight loop', async () => {
    vi.useFakeTimers();
    const t = table();
    t.rows.set('a', probe());
    t.fail(true);
    const hub = new FeedHub(t.source, { pollMs: 30 });
    const r = recorder();
    const stop = hub.watch('a', r.w);
    await vi.advanceTimersByTimeAsync(100);
    expect(t.probeQueries.length).toBe(4); // at once, then every 30 ms
    expect(r.seen).toEqual(['failed', 'failed', 'failed', 'failed']);
    t.fail(false);
    await vi.advanceTimersByTimeAsync(30);
    expect(r.seen.at(-1)).toBe('view:unpaid');
    stop();
  });
});

describe('feed hub fed by notifications', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A change feed the test drives by hand. */
  function feed() {
    const subs = new Set<ChangeSubscriber>();
    const changes: ChangeFeed = { live: true, subscribe: (s) => (subs.add(s), () => void subs.delete(s)) };
    return {
      changes,
      subs,
      notify: (...ids: string[]) => subs.forEach((s) => s.changed(new Set(ids))),
      resync: () => subs.forEach((s) => s.resync()),
    };
  }

  it('reads only the notified payments that are watched, at once; the safety poll and a resync read them all', async () => {
    vi.useFakeTimers();
    const t = table();
    for (const id of ['a', 'b', 'c']) t.rows.set(id, probe());
    const f = feed();
    const hub = new FeedHub(t.source, { changes: f.changes });
    expect(hub.pollMs).toBe(10_000);
    const ra = recorder();
    const rb = recorder();
    const stops = [hub.watch('a', ra.w), hub.watch('b', rb.w)];
    expect(f.subs.size).toBe(1); // one subscription per hub, whatever the watchers
    await vi.advanceTimersByTimeAsync(1);
    expect(t.probeQueries).toEqual([['a', 'b']]);

    t.rows.set('a', probe('accepted', 2));
    t.rows.set('c', probe('accepted', 2));
    f.notify('a', 'c'); // c is watched by nobody here
    await vi.advanceTimersByTimeAsync(1);
    expect(t.probeQueries.at(-1)).toEqual(['a']);
    expect(ra.seen).toEqual(['view:unpaid', 'view:accepted']);
    f.notify('c');
    await vi.advanceTimersByTimeAsync(1);
    expect(t.probeQueries.length).toBe(2); // no round for an unwatched payment

    t.rows.set('b', probe('declined', 3)); // its notification was lost
    f.resync();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.probeQueries.at(-1)).toEqual(['a', 'b']);
    expect(rb.seen).toEqual(['view:unpaid', 'view:declined', 'final']);

    t.rows.set('a', probe('confirmed', 4)); // lost too, and no reconnect: the safety poll finds it
    await vi.advanceTimersByTimeAsync(9_000);
    expect(ra.seen.at(-1)).toBe('view:accepted');
    await vi.advanceTimersByTimeAsync(1_100);
    expect(ra.seen.slice(-2)).toEqual(['view:confirmed', 'final']);
    stops.forEach((s) => s());
  });

  it('while rounds fail, retries at the old poll pace (a stream gives up in seconds), then back to the safety poll', async () => {
    vi.useFakeTimers();
    const t = table();
    t.rows.set('a', probe());
    t.fail(true);
    const hub = new FeedHub(t.source, { changes: feed().changes });
    const r = recorder();
    const stop = hub.watch('a', r.w);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(r.seen.length).toBeGreaterThanOrEqual(3); // at once, then every 300 ms
    expect(r.seen.every((x) => x === 'failed')).toBe(true);
    t.fail(false);
    await vi.advanceTimersByTimeAsync(300);
    expect(r.seen.at(-1)).toBe('view:unpaid');
    const n = t.probeQueries.length;
    await vi.advanceTimersByTimeAsync(9_000);
    expect(t.probeQueries.length).toBe(n); // healthy again: the 10 s safety poll
    stop();
  });

  it('tells a watcher its payment expired when the expiry comes, with no write and no notification', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const t = table();
    t.rows.set('a', { ...probe(), expiresAt: new Date(1_000_000 + 3_000) });
    const hub = new FeedHub(t.source, { changes: feed().changes });
    const r = recorder();
    const stop = hub.watch('a', r.w);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.seen).toEqual(['view:unpaid']);
    await vi.advanceTimersByTimeAsync(2_900);
    expect(r.seen).toEqual(['view:unpaid']);
    await vi.advanceTimersByTimeAsync(200);
    expect(r.seen).toEqual(['view:unpaid', 'view:unpaid', 'final']); // the expired view, then the end
    expect(t.probeQueries.length).toBe(2);
    stop();
  });
});

describe('payment stream on a shared hub', () => {
  it('a slow reader is never queued more than the latest state', async () => {
    const t = table();
    t.rows.set('a', probe('unpaid', 1));
    const hub = new FeedHub(t.source, { pollMs: 5 });
    const stream = paymentEventStream({ hub: hub as never, id: 'a', heartbeatMs: 1 });
    const reader = stream.getReader();
    // Nobody reads while the payment changes 30 times.
    for (let i = 2; i < 32; i++) {
      t.rows.set('a', probe(i === 31 ? 'accepted' : 'unpaid', i));
      await sleep(8);
    }
    const dec = new TextDecoder();
    let out = '';
    const more = async () => {
      const { value } = await reader.read();
      out += dec.decode(value);
    };
    for (let i = 0; i < 3; i++) await more();
    const events = [...out.matchAll(/event: payment\ndata: (.*)\n\n/g)].map((m) => JSON.parse(m[1]).status);
    // retry, one queued state, then the latest one: the intermediate states were dropped.
    expect(out.startsWith('retry: 1000\n\n')).toBe(true);
    expect(events.length).toBeLessThanOrEqual(2);
    expect(events.at(-1)).toBe('accepted');
    await reader.cancel();
    expect(hub.watchers).toBe(0);
  });
});

describe('stream slots', () => {
  it('caps per user and per process, and releases once', () => {
    const s = new StreamSlots(15, 10);
    const a = Array.from({ length: 10 }, () => s.acquire('key:a'));
    expect(a.every((x) => x.ok)).toBe(true);
    expect(s.acquire('key:a')).toEqual({ ok: false, reason: 'user' });
    const b = Array.from({ length: 5 }, () => s.acquire('user:b'));
    expect(b.every((x) => x.ok)).toBe(true);
    expect(s.acquire('user:c')).toEqual({ ok: false, reason: 'process' });
    const first = a[0];
    if (!first.ok) throw new Error('unreachable');
    first.release();
    first.release(); // idempotent
    expect(s.open).toBe(14);
    expect(s.openFor('key:a')).toBe(9);
    expect(s.acquire('key:a').ok).toBe(true);
    expect(s.acquire('key:a')).toEqual({ ok: false, reason: 'user' });
  });

  it('reads MAX_STREAMS, falling back to the default on nonsense', () => {
    expect(maxStreamsFromEnv({})).toBe(DEFAULT_MAX_STREAMS);
    expect(DEFAULT_MAX_STREAMS).toBe(2000);
    expect(maxStreamsFromEnv({ MAX_STREAMS: '5' })).toBe(5);
    expect(maxStreamsFromEnv({ MAX_STREAMS: '0' })).toBe(DEFAULT_MAX_STREAMS);
    expect(maxStreamsFromEnv({ MAX_STREAMS: 'lots' })).toBe(DEFAULT_MAX_STREAMS);
  });
});
