// The café's routes (docs/counter.md#open-tickets, docs/counter.md#tips-on-the-customers-display)
// as openapi-payments.test.ts exercises them against the document: each call goes through its
// checked `call`, so every answer is validated and counted towards "every documented status seen".
import { expect } from 'vitest';

type Headers = Record<string, string>;
/** The fields these calls read (the document's check has validated the whole answer). */
interface Answer {
  status: number;
  body: { id: string; updated_at: string; options: { percent: number }[]; tickets: { name: string }[] };
}
export type CheckedCall = (
  method: string,
  template: string,
  params?: Record<string, string>,
  c?: { key?: string | null; body?: unknown; headers?: Headers },
) => Promise<Answer>;

const is = (r: Answer, status: number) => expect(r.status, JSON.stringify(r.body)).toBe(status);

/** The till's wait for a tip before a display is paired: 200, not waiting. */
export async function tipWithoutDisplay(call: CheckedCall, till: Headers) {
  is(await call('POST', '/api/pos/display/tip', {}, { key: null, headers: till, body: { total: '1000000000', currency: 'DOGE' } }), 200);
}

/** With `display` paired to the till: the wait opened, answered once, refused outside it, ended. */
export async function tipWithDisplay(call: CheckedCall, till: Headers, terminalOnly: Headers, sessionOnly: Headers, display: string) {
  const wait = '/api/pos/display/tip';
  const answer = '/api/display/tip';
  const start = { total: '1000000000', currency: 'DOGE' };
  const asDisplay = (body: unknown, headers: Headers = { Cookie: display }) => call('POST', answer, {}, { key: null, headers, body });
  is(await asDisplay({ percent: 15 }), 409); // no wait yet
  const opened = await call('POST', wait, {}, { key: null, headers: till, body: start });
  is(opened, 201);
  expect(opened.body.options.map((o) => o.percent)).toEqual([10, 15, 20]);
  is(await call('POST', wait, {}, { key: null, headers: till, body: { total: '-1', currency: 'DOGE' } }), 400);
  is(await call('POST', wait, {}, { key: null, headers: terminalOnly, body: start }), 401);
  is(await call('POST', wait, {}, { key: null, headers: sessionOnly, body: start }), 403);
  is(await asDisplay({ percent: 101 }), 400);
  is(await asDisplay({ percent: 15 }, {}), 401);
  is(await asDisplay({ percent: 15 }, { Cookie: display, Origin: 'http://evil.test' }), 403);
  is(await asDisplay({ percent: 15 }), 204);
  const read = await call('GET', wait, {}, { key: null, headers: till });
  is(read, 200);
  expect(read.body).toEqual({ waiting: true, answer: '150000000' });
  is(await asDisplay({ percent: 10 }), 409); // answered once
  is(await call('DELETE', wait, {}, { key: null, headers: till }), 204);
}

/** Open tickets: saved, listed, updated with the version read, a stale update 409, closed; API keys and no session refused. */
export async function ticketRoutes(call: CheckedCall, owner: Headers) {
  const asOwner = { key: null, headers: owner };
  const cart = { lines: [], extras: [] };
  const made = await call('POST', '/api/pos/tickets', {}, { ...asOwner, body: { name: 'Table 4', cart, total: '0' } });
  is(made, 201);
  is(await call('POST', '/api/pos/tickets', {}, { ...asOwner, body: { name: '', cart, total: '0' } }), 400);
  is(await call('POST', '/api/pos/tickets', {}, { body: { name: 'Key', cart, total: '0' } }), 403); // an API key
  is(await call('GET', '/api/pos/tickets', {}, {}), 403);
  is(await call('GET', '/api/pos/tickets', {}, { key: null }), 401);
  is(await call('POST', '/api/pos/tickets', {}, { key: null, body: { name: 'x', cart, total: '0' } }), 401);
  const list = await call('GET', '/api/pos/tickets', {}, asOwner);
  is(list, 200);
  expect(list.body.tickets.map((t) => t.name)).toContain('Table 4');
  const one = { ticketId: made.body.id };
  const put = (updated_at: string) =>
    call('PUT', '/api/pos/tickets/{ticketId}', one, { ...asOwner, body: { cart, total: '0', updated_at } });
  const updated = await put(made.body.updated_at);
  is(updated, 200);
  is(await put(made.body.updated_at), 409); // the version read before that update
  is(await call('PUT', '/api/pos/tickets/{ticketId}', one, { ...asOwner, body: { cart } }), 400);
  is(
    await call(
      'PUT',
      '/api/pos/tickets/{ticketId}',
      { ticketId: 'tk_none' },
      { ...asOwner, body: { cart, total: '0', updated_at: made.body.updated_at } },
    ),
    404,
  );
  is(await call('DELETE', '/api/pos/tickets/{ticketId}', one, asOwner), 204);
  is(await call('DELETE', '/api/pos/tickets/{ticketId}', one, asOwner), 404);
}
