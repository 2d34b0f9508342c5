import { describe, expect, it } from 'vitest';
import { isFinalProbe, openFeedCount, paymentEventStream, probeFingerprint, type FeedProbe } from '@/lib/live/payment-feed';
import { sleep } from '../helpers/wait';

const base: FeedProbe = {
  status: 'unpaid',
  confirmations: 0,
  txid: null,
  broadcastState: 'none',
  updatedAt: new Date(1000),
  expiresAt: new Date(10_000),
};

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const r = stream.getReader();
  const dec = new TextDecoder();
  let s = '';
  for (;;) {
    const { value, done } = await r.read();
    if (done) return s;
    s += dec.decode(value);
  }
}

describe('payment feed', () => {
  it('knows final states: confirmed, declined, and expired with nothing in flight', () => {
    expect(isFinalProbe({ ...base, status: 'confirmed' }, new Date(0))).toBe(true);
    expect(isFinalProbe({ ...base, status: 'declined' }, new Date(0))).toBe(true);
    expect(isFinalProbe({ ...base, status: 'accepted' }, new Date(99_999))).toBe(false);
    expect(isFinalProbe(base, new Date(9_999))).toBe(false);
    expect(isFinalProbe(base, new Date(10_000))).toBe(false); // at the deadline: not yet past it (lib/payments isPastExpiry)
    expect(isFinalProbe(base, new Date(10_001))).toBe(true);
    expect(isFinalProbe({ ...base, broadcastState: 'pending' }, new Date(10_000))).toBe(false);
    expect(probeFingerprint(base, new Date(0))).not.toBe(probeFingerprint({ ...base, confirmations: 1 }, new Date(0)));
    expect(probeFingerprint(base, new Date(0))).not.toBe(probeFingerprint(base, new Date(10_001)));
  });

  it('sends a view per change, heartbeats, and ends after the final state', async () => {
    const states: FeedProbe[] = [
      base,
      base,
      { ...base, status: 'accepted', txid: 'ab' },
      { ...base, status: 'accepted', txid: 'ab' },
      { ...base, status: 'confirmed', txid: 'ab', confirmations: 1 },
    ];
    let i = 0;
    let cur = base;
    const out = await readAll(
      paymentEventStream({
        probe: async () => (cur = states[Math.min(i++, states.length - 1)]),
        view: async () => ({ status: cur.status }),
        pollMs: 5,
        heartbeatMs: 2,
        now: () => new Date(0),
      }),
    );
    const payments = [...out.matchAll(/event: payment\ndata: (.*)\n\n/g)].map((m) => JSON.parse(m[1]).status);
    expect(payments).toEqual(['unpaid', 'accepted', 'confirmed']);
    expect(out).toMatch(/^retry: 1000\n\n/);
    expect(out).toContain(': keep-alive\n\n');
    expect(out.endsWith('event: end\ndata: {"reason":"final"}\n\n')).toBe(true);
  });

  it('stops polling when the client aborts, and ends at the lifetime bound', async () => {
    let probes = 0;
    const ctl = new AbortController();
    const closed: string[] = [];
    const stream = paymentEventStream({
      probe: async () => (probes++, base),
      view: async () => ({}),
      signal: ctl.signal,
      pollMs: 5,
      now: () => new Date(0),
      onClose: (r) => closed.push(r),
    });
    const done = readAll(stream);
    await sleep(40);
    expect(openFeedCount()).toBe(1);
    ctl.abort();
    await done;
    expect(openFeedCount()).toBe(0); // the finished and the aborted streams are no longer counted
    expect(closed).toEqual(['client_gone']);
    const at = probes;
    await sleep(40);
    expect(probes).toBeGreaterThan(1);
    expect(probes).toBeLessThanOrEqual(at + 1); // at most the poll already in flight

    const timed = await readAll(
      paymentEventStream({ probe: async () => base, view: async () => ({}), pollMs: 5, maxMs: 30, now: () => new Date(0) }),
    );
    expect(timed.endsWith('event: end\ndata: {"reason":"lifetime"}\n\n')).toBe(true);

    let failures = 0;
    const broken = await readAll(
      paymentEventStream({
        probe: async () => {
          failures++;
          throw new Error('db down');
        },
        view: async () => ({}),
        pollMs: 1,
        maxErrors: 3,
      }),
    );
    expect(failures).toBe(3);
    expect(broken.endsWith('event: end\ndata: {"reason":"unavailable"}\n\n')).toBe(true);
    const gone = await readAll(paymentEventStream({ probe: async () => null, view: async () => ({}) }));
    expect(gone.endsWith('event: end\ndata: {"reason":"not_found"}\n\n')).toBe(true);
  });
});
