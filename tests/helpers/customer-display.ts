// The customer's display (docs/counter.md#the-customers-display) as its tests drive it: the real
// built app (devnet, PGlite, TRUST_PROXY=1) with a manager and a cashier signed in and two
// registered tills, each request from a fresh client address unless told (pairing failures are
// throttled per client); pairing codes, published carts, paired displays and their streams.
import { expect } from 'vitest';
import { devnetAppEnv, startApp, type AppServer } from './app-server';
import { appClient, firstCookie, request, type SignedIn, type Who } from './client';
import type { ErrorJson } from './json-shapes';
import { testXpub } from './keys';
import { openEventStream, type EventStream } from './streams';
import { until } from './wait';

const PASSWORD = 'customer display password 3';

/** A pairing code as POST /api/pos/display/pairing answers. */
export interface PairingJson {
  code: string;
  path: string;
  expires_at: string;
}
/** A sale as POST /api/v1/payments answers (the fields the display must show). */
export interface SaleJson {
  id: string;
  terminal: string | null;
  total: string;
  uri: string;
  connect_uri: string;
  expires_at: string;
}
/** A `display` event's data (the fields tests read): the cart being rung up and, once charged, the payment. */
export interface DisplayJson {
  cart?: { lines?: { name: string }[] } | null;
  payment?: { live?: { status: string }; [field: string]: unknown } | null;
  [field: string]: unknown;
}
/** A registered till: its id and its counter_terminal cookie. */
export interface Till {
  id: string;
  cookie: string;
}

/** Opens the display stream of `base` with the display cookie `cookie` ('' for none). */
export const openStream = (base: string, cookie: string): Promise<EventStream<DisplayJson>> =>
  openEventStream<DisplayJson>(`${base}/api/display/events`, cookie ? { Cookie: cookie } : {});

/** Waits until `ok` holds of `fn()`, and fails the test if it never does. */
export async function eventually<T>(fn: () => T, ok: (v: T) => boolean, ms = 5_000, stepMs = 10): Promise<T> {
  const v = await until(fn, ok, ms, stepMs);
  expect(ok(v), `condition not met within ${ms} ms`).toBe(true);
  return v;
}
/** The data of the last `display` event the stream got. */
export const lastDisplay = (s: EventStream<DisplayJson>) => [...s.events].reverse().find((e) => e.event === 'display')?.data;

/** A cart of `count` × `name` at 1.5 DOGE with a tax line, charging `paymentId` when given. */
export const cart = (name: string, count = 1, paymentId: string | null = null) => ({
  currency: 'DOGE',
  lines: [{ name, count, total: String(150_000_000 * count) }],
  adjustments: [{ kind: 'tax', amount: '1000' }],
  total: String(150_000_000 * count + 1000),
  payment_id: paymentId,
});

/** The app with its staff and tills, filled in by start(). */
export function displayCounter() {
  let app: AppServer;
  const manager = {} as SignedIn;
  const cashier = {} as SignedIn;
  const tillA = {} as Till;
  const tillB = {} as Till;
  const { login } = appClient(() => app.url, PASSWORD);
  let ip = 0;
  /** A fresh client address (TRUST_PROXY=1): pairing failures are throttled per client. */
  const client = () => `10.1.${Math.floor(++ip / 250)}.${ip % 250}`;

  /** A request from a fresh client address unless told (a raw body is sent as it is); `T` is how the test reads the JSON answer. */
  const req = <T = unknown>(
    w: Who | null,
    method: string,
    path: string,
    body?: unknown,
    extra: { cookie?: string; headers?: Record<string, string>; raw?: string } = {},
  ) =>
    request<T>(app.url, w, method, path, extra.raw ?? body, {
      extraCookie: extra.cookie,
      headers: { 'X-Forwarded-For': extra.headers?.['X-Forwarded-For'] ?? client(), ...extra.headers },
    });
  async function register(name: string): Promise<Till> {
    const r = await req<{ id: string }>(manager, 'POST', '/api/admin/terminals', { name });
    expect(r.status, r.text).toBe(201);
    return { id: r.body.id, cookie: firstCookie(r, 'counter_terminal') };
  }
  const newCode = (till: { cookie: string }, w: Who = manager) =>
    req<PairingJson>(w, 'POST', '/api/pos/display/pairing', {}, { cookie: till.cookie });
  const publish = (till: { cookie: string }, body: unknown, w: Who = manager) =>
    req<ErrorJson | null>(w, 'PUT', '/api/pos/display/cart', body, { cookie: till.cookie });
  /** Pairs a new display with `till`; returns its cookie. */
  async function pair(till: { cookie: string }, previous = ''): Promise<string> {
    const c = await newCode(till);
    expect(c.status, c.text).toBe(201);
    const r = await req(null, 'POST', '/api/display/pair', { code: c.body.code }, { cookie: previous });
    expect(r.status, r.text).toBe(200);
    return firstCookie(r, 'counter_display');
  }

  /** Starts the app, has the owner add the manager and the cashier, signs them in, and registers the tills. */
  async function start() {
    app = await startApp(
      devnetAppEnv({
        ADMIN_EMAIL: 'owner@display.test',
        ADMIN_PASSWORD: PASSWORD,
        STORE_XPUB: testXpub(31),
        RATE_LIMIT_RPS: '0',
        TRUST_PROXY: '1',
      }),
    );
    const owner = await login('owner@display.test');
    for (const [k, role] of [
      ['manager', 'manager'],
      ['cashier', 'cashier'],
    ] as const) {
      const r = await req(owner, 'POST', '/api/admin/users', { email: `${k}@display.test`, name: `Staff ${k}`, password: PASSWORD, role });
      expect(r.status, r.text).toBe(201);
    }
    Object.assign(manager, await login('manager@display.test'));
    Object.assign(cashier, await login('cashier@display.test'));
    Object.assign(tillA, await register('Front counter'));
    Object.assign(tillB, await register('Patio'));
  }
  return { url: () => app.url, stop: () => app?.stop(), start, manager, cashier, tillA, tillB, req, register, newCode, publish, pair };
}
