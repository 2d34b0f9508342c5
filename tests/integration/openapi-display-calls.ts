// The customer display's routes (docs/counter.md#the-customers-display) as openapi-payments.test.ts
// exercises them against the document, in the order a shop meets them: the till asks for a
// pairing code and publishes its cart, the display pairs, reads its state and its stream, the
// tip is asked for on it, and both the pairing and the publishing are throttled. Each call goes
// through the test's checked `call`, so every answer is validated and counted towards "every
// documented status seen".
import { expect } from 'vitest';
import type { OpenApiChecker } from '../helpers/openapi';
import { expectStatus, type Call } from '../helpers/openapi-calls';
import { tipWithDisplay, tipWithoutDisplay } from './openapi-cafe-calls';

type Headers = Record<string, string>;
type CheckedCall = <T = unknown>(
  method: string,
  template: string,
  params?: Record<string, string>,
  c?: Call,
) => Promise<{ status: number; headers: globalThis.Headers; body: T }>;

const PAIRING = '/api/pos/display/pairing';
const CART = '/api/pos/display/cart';
const PAIR = '/api/display/pair';
const CART_BODY = {
  currency: 'DOGE',
  lines: [{ name: 'Coffee', count: 2, total: '2100000000' }],
  adjustments: [],
  total: '2100000000',
  payment_id: null,
};
const anon = { key: null };

const cookieOf = (h: globalThis.Headers, name: string) =>
  h
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))!
    .split(';')[0];

/** Every route of the customer display with its refusals; `owner` is a signed-in owner's headers. */
export async function displayRoutes(call: CheckedCall, checker: OpenApiChecker, base: string, owner: Headers) {
  const reg = await fetch(`${base}/api/admin/terminals`, {
    method: 'POST',
    headers: owner,
    body: JSON.stringify({ name: 'OpenAPI till' }),
  });
  expect(reg.status).toBe(201);
  const terminal = cookieOf(reg.headers, 'counter_terminal');
  const till = { Cookie: `${owner.Cookie}; ${terminal}`, 'X-CSRF-Token': owner['X-CSRF-Token'] };
  const sessionOnly = { Cookie: owner.Cookie, 'X-CSRF-Token': owner['X-CSRF-Token'] };

  const code = await call<{ code: string }>('POST', PAIRING, {}, { key: null, headers: till, body: {} });
  expectStatus(code, 201);
  expectStatus(await call('POST', PAIRING, {}, { key: null, headers: { Cookie: terminal }, body: {} }), 401);
  expectStatus(await call('POST', PAIRING, {}, { key: null, headers: sessionOnly, body: {} }), 403);
  await publishedCart(call, till, terminal, sessionOnly);
  await tipWithoutDisplay(call, till);
  const display = await pairDisplay(call, code.body.code);
  await displayState(call, checker, base, display);
  await tipWithDisplay(call, till, { Cookie: terminal }, sessionOnly, display);
  await throttles(call, till);
}

/** The till's cart: 204, and 400, 413, 401 and 403. */
async function publishedCart(call: CheckedCall, till: Headers, terminal: string, sessionOnly: Headers) {
  expectStatus(await call('PUT', CART, {}, { key: null, headers: till, body: CART_BODY }), 204);
  expectStatus(await call('PUT', CART, {}, { key: null, headers: till, body: {} }), 400);
  expectStatus(await call('PUT', CART, {}, { key: null, headers: till, body: JSON.stringify(CART_BODY).padEnd(65 * 1024) }), 413);
  expectStatus(await call('PUT', CART, {}, { key: null, headers: { Cookie: terminal }, body: CART_BODY }), 401);
  expectStatus(await call('PUT', CART, {}, { key: null, headers: sessionOnly, body: CART_BODY }), 403);
}

/** The display pairs with the till's code (200), and a missing code or a foreign origin is refused; its cookie. */
async function pairDisplay(call: CheckedCall, code: string): Promise<string> {
  const paired = await call('POST', PAIR, {}, { ...anon, body: { code } });
  expectStatus(paired, 200);
  expectStatus(await call('POST', PAIR, {}, { ...anon, body: {} }), 400);
  expectStatus(await call('POST', PAIR, {}, { ...anon, headers: { Origin: 'http://evil.test' }, body: { code: 'AAAA-AAAA' } }), 403);
  return cookieOf(paired.headers, 'counter_display');
}

/** The display's state and its stream's first `display` event, which holds the published cart. */
async function displayState(call: CheckedCall, checker: OpenApiChecker, base: string, display: string) {
  expectStatus(await call('GET', '/api/display', {}, { key: null, headers: { Cookie: display } }), 200);
  expectStatus(await call('GET', '/api/display', {}, { key: null }), 401);
  expectStatus(await call('GET', '/api/display/events', {}, { key: null }), 401);
  const ac = new AbortController();
  const live = await fetch(`${base}/api/display/events`, { headers: { Cookie: display }, signal: ac.signal });
  expect(live.status).toBe(200);
  const reader = live.body!.getReader();
  let text = '';
  while (!/\n\n$/.test(text) || !text.includes('event: display')) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  ac.abort();
  checker.check('GET', '/api/display/events', { status: 200, headers: live.headers, text: '' });
  const state = JSON.parse(/^event: display\ndata: (.*)$/m.exec(text)![1]);
  checker.validateSchema('DisplayState', state, 'the `display` event');
  expect(state.cart.lines).toEqual(CART_BODY.lines);
}

/** Wrong pairing codes from one client, and a till publishing over its budget: 401s, then 429. */
async function throttles(call: CheckedCall, till: Headers) {
  for (let i = 0; i < 5; i++) expectStatus(await call('POST', PAIR, {}, { ...anon, body: { code: `AAAA-AAA${i}` } }), 401);
  expectStatus(await call('POST', PAIR, {}, { ...anon, body: { code: 'AAAA-AAAA' } }), 429);
  // The budget is 10 a second in bursts of 30: waves of 100 at once until one is refused (a
  // loaded machine may serve a wave slower than the budget refills).
  const statuses: number[] = [];
  for (let wave = 0; wave < 10 && !statuses.includes(429); wave++) {
    const burst = await Promise.all(
      Array.from({ length: 100 }, () => call('PUT', CART, {}, { key: null, headers: till, body: CART_BODY })),
    );
    statuses.push(...burst.map((r) => r.status));
  }
  expect(statuses).toContain(429);
}
