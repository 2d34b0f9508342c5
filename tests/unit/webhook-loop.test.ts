// The delivery loop against a stub database: errors are swallowed and logged, passes go on,
// and stop() ends it. The real delivery path is covered by tests/integration/webhook-delivery.test.ts.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db/open';
import { deliverDueEvents, redactUrl, startWebhookLoop } from '../../lib/webhooks/delivery';

type Call = [level: 'info' | 'warn', msg: string, fields?: Record<string, unknown>];
function recorder() {
  const calls: Call[] = [];
  return {
    calls,
    log: {
      info: (msg: string, fields?: Record<string, unknown>) => void calls.push(['info', msg, fields]),
      warn: (msg: string, fields?: Record<string, unknown>) => void calls.push(['warn', msg, fields]),
    },
  };
}

function stubDb(findMany: () => Promise<unknown[]>, store: { webhookUrl: string; webhookSecret: string } | null = null): Db {
  return {
    prisma: {
      vendorEvent: { findMany, updateMany: async () => ({ count: 0 }) },
      store: { findUnique: async () => store },
    },
  } as unknown as Db;
}

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('startWebhookLoop', () => {
  it('survives a database outage: logs, backs off, recovers, and stops cleanly', async () => {
    let calls = 0;
    const db = stubDb(async () => {
      calls++;
      if (calls <= 3) throw new Error('connection refused');
      return [];
    });
    const { calls: logged, log } = recorder();
    const loop = startWebhookLoop(db, { intervalMs: 5, log });
    await until(() => calls >= 6);
    await loop.stop();
    const seen = calls;
    const failures = logged.filter(([, msg]) => msg === 'webhook delivery pass failed');
    expect(failures).toHaveLength(3);
    expect(failures.map(([, , f]) => f?.retryInMs)).toEqual([5, 10, 20]);
    expect(failures[0][2]?.error).toContain('connection refused');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(seen); // no pass after stop()
  });

  it('warns once, not every pass, while the webhook is not configured', async () => {
    let calls = 0;
    const due = [{ seq: 1n, id: 'evt', body: '{}', attempts: 0, createdAt: new Date() }];
    const db = stubDb(
      async () => {
        calls++;
        return due;
      },
      { webhookUrl: '', webhookSecret: '' },
    );
    const { calls: logged, log } = recorder();
    const loop = startWebhookLoop(db, { intervalMs: 2, log });
    await until(() => calls >= 5);
    await loop.stop();
    expect(logged).toEqual([['warn', 'webhook not configured; vendor events stay pending', { reason: 'no_url' }]]);
  });

  it('stop() is prompt when idle and safe to call twice', async () => {
    const db = stubDb(async () => []);
    const loop = startWebhookLoop(db, { intervalMs: 60_000, log: recorder().log });
    await new Promise((r) => setTimeout(r, 20));
    const t0 = Date.now();
    await loop.stop();
    await loop.stop();
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe('deliverDueEvents configuration checks', () => {
  const due = [{ seq: 1n, id: 'evt', body: '{}', attempts: 0, createdAt: new Date() }];
  const cases: [string, { webhookUrl: string; webhookSecret: string } | null, string][] = [
    ['no store row', null, 'no_url'],
    ['no url', { webhookUrl: '', webhookSecret: 's' }, 'no_url'],
    ['no secret', { webhookUrl: 'https://example.com/hook', webhookSecret: '' }, 'no_secret'],
    ['not http', { webhookUrl: 'file:///etc/passwd', webhookSecret: 's' }, 'invalid_url'],
    ['credentials in url', { webhookUrl: 'https://u:p@example.com/', webhookSecret: 's' }, 'invalid_url'],
    ['unparseable', { webhookUrl: 'not a url', webhookSecret: 's' }, 'invalid_url'],
  ];
  it.each(cases)('%s: nothing attempted, nothing fetched', async (_name, store, reason) => {
    let fetched = 0;
    const r = await deliverDueEvents(
      stubDb(async () => due, store),
      {
        fetch: (async () => {
          fetched++;
          return new Response(null, { status: 200 });
        }) as typeof fetch,
        log: recorder().log,
      },
    );
    expect(r).toEqual({ attempted: 0, delivered: 0, unconfigured: reason });
    expect(fetched).toBe(0);
  });

  it('does not read the store when nothing is due', async () => {
    const db = stubDb(async () => []);
    (db.prisma.store as unknown as { findUnique: () => never }).findUnique = () => {
      throw new Error('should not be called');
    };
    expect(await deliverDueEvents(db, { log: recorder().log })).toEqual({ attempted: 0, delivered: 0 });
  });
});

describe('redactUrl', () => {
  it('drops credentials, query and fragment', () => {
    expect(redactUrl('https://u:p@shop.example:8443/hooks/counter?token=abc#x')).toBe('https://shop.example:8443/hooks/counter');
    expect(redactUrl('nope')).toBe('[invalid url]');
  });
});
