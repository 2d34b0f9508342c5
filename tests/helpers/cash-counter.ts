// The till that takes cash (docs/counter.md#cash) as its tests drive it: the real built app
// (devnet, PGlite) pricing in USD at a fixed 0.125 USD per DOGE, with an owner, a manager and two
// cashiers signed in, two registered tills (the front counter and the patio), the cashiers' PIN
// sessions on them, and the store's webhooks sent to a local receiver signed with its secret.
import { expect } from 'vitest';
import { devnetAppEnv, startApp, type AppServer } from './app-server';
import { appClient, firstCookie, type SignedIn, type Who } from './client';
import { testXpub } from './keys';
import { until } from './wait';
import { startWebhookReceiver, type Received } from './webhook-receiver';

const PASSWORD = 'counter cash password 7';

/** A sale as POST /api/v1/payments answers (the fields tests read beyond their matchers). */
export interface SaleJson {
  id: string;
  uri: string;
  confirmed_at: string | null;
}

/** 3 × 2.45 + 0.10 tax = 7.45 USD, paid with 20 in cash; `extra` changes or adds fields. */
export const tea = (extra: Record<string, unknown> = {}) => ({
  currency: 'USD',
  tender: 'cash',
  cash_received: '20',
  items: [{ type: 'item', id: 'TEA', name: 'Tea', count: 3, unit: '2.45', tax: '0.10' }],
  ...extra,
});

type Staff = Record<'owner' | 'manager' | 'cashier' | 'cashier2', SignedIn>;
type Tills = Record<'front' | 'patio', { id: string; cookie: string }>;
/** PIN sessions: cashier and cashier2 on the front till, cashier2 on the patio. */
type PinSessions = Record<'front1' | 'front2' | 'patio2', Who>;

/** Signs the owner in, has it add the manager and both cashiers (with PINs), registers the tills and opens the PIN sessions. */
async function staffTheTills({ req, login, pinIn }: ReturnType<typeof appClient>, who: Staff, till: Tills, pinned: PinSessions) {
  who.owner = await login('owner@cash.test');
  for (const k of ['manager', 'cashier', 'cashier2'] as const) {
    const r = await req(who.owner, 'POST', '/api/admin/users', {
      email: `${k}@cash.test`,
      name: `Staff ${k}`,
      password: PASSWORD,
      role: k === 'manager' ? 'manager' : 'cashier',
    });
    expect(r.status, r.text).toBe(201);
    who[k] = await login(`${k}@cash.test`);
  }
  for (const [k, pin] of [
    ['cashier', '2580'],
    ['cashier2', '1470'],
  ] as const) {
    expect((await req(who.owner, 'PUT', `/api/admin/users/${who[k].id}/pin`, { pin })).status).toBe(204);
  }
  for (const [k, name] of [
    ['front', 'Front counter'],
    ['patio', 'Patio'],
  ] as const) {
    const r = await req<{ id: string }>(who.manager, 'POST', '/api/admin/terminals', { name });
    expect(r.status, r.text).toBe(201);
    till[k] = { id: r.body.id, cookie: firstCookie(r, 'counter_terminal') };
  }
  pinned.front1 = await pinIn(till.front.cookie, who.cashier.id, '2580');
  pinned.front2 = await pinIn(till.front.cookie, who.cashier2.id, '1470');
  pinned.patio2 = await pinIn(till.patio.cookie, who.cashier2.id, '1470');
}

/** The app with its staff, tills and PIN sessions, filled in by start(). */
export function cashCounter() {
  let app: AppServer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const who = {} as Staff;
  const till = {} as Tills;
  const pinned = {} as PinSessions;
  /** The webhook deliveries received so far. */
  const hooks = {
    get events(): Received[] {
      return receiver?.events ?? [];
    },
  };

  const client = appClient(() => app.url, PASSWORD);
  const { req, ready, pinIn } = client;
  /** Has the owner price the store in `currency`, and waits until a rate for it is in force. */
  async function pricing(currency: string) {
    const r = await req(who.owner, 'PATCH', '/api/admin/settings', { pricing_currency: currency });
    expect(r.status, r.text).toBe(200);
    if (currency !== 'DOGE')
      await until(
        () => req<{ currency: string } | null>(who.owner, 'GET', '/api/v1/rates'),
        (x) => x.body?.currency === currency && x.status === 200,
        20_000,
      );
  }
  /** A sale; `T` is how the test reads the answer: the sale unless said (ErrorJson for a refusal). */
  const sale = <T = SaleJson>(w: Who, body: unknown, key?: string) =>
    req<T>(w, 'POST', '/api/v1/payments', body, { headers: key ? { 'Idempotency-Key': key } : {} });

  async function start() {
    app = await startApp(
      devnetAppEnv({
        ADMIN_EMAIL: 'owner@cash.test',
        ADMIN_PASSWORD: PASSWORD,
        STORE_XPUB: testXpub(31),
        RATE_LIMIT_RPS: '0',
        RATE_SOURCES: 'fixed:0.125',
        RATE_REFRESH_SEC: '1',
        WEBHOOK_ALLOW_PRIVATE: '1',
      }),
    );
    await ready();
    await staffTheTills(client, who, till, pinned);
    // Webhooks to a local receiver, signed with the store's secret.
    const secret = await req<{ secret: string }>(who.owner, 'POST', '/api/admin/settings/webhook-secret');
    expect(secret.status, secret.text).toBe(200);
    receiver = await startWebhookReceiver(secret.body.secret);
    expect((await req(who.owner, 'PATCH', '/api/admin/settings', { webhook_url: receiver.url })).status).toBe(200);
    await pricing('USD');
  }
  async function stop() {
    await app?.stop();
    await receiver?.close();
  }
  return { who, till, pinned, hooks, req, pinIn, pricing, sale, start, stop };
}
