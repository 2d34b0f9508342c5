// Open tickets (docs/counter.md#open-tickets) on the real built app (devnet, PGlite): save,
// list (oldest first), update with the version read (two cashiers updating one ticket: one gets
// 409), delete; till users only (password or PIN session; an API key is 403, nobody 401); bad
// input a 400 naming the field; charging a ticket sets order_reference to its name and closes it
// once the payment is confirmed; an unknown or closed ticket is 400 naming ticket_id.
import { beforeAll, describe, expect, it } from 'vitest';
import { REGTEST, hdFromSeed, serializeXpub, derivePath } from '@/lib/doge';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { appClient, firstCookie, type SignedIn, type Who } from '../helpers/client';
import type { ErrorJson } from '../helpers/json-shapes';

const PASSWORD = 'open tickets password 3';
const XPUB = serializeXpub(derivePath(hdFromSeed(new Uint8Array(32).fill(46), REGTEST), "m/44'/1'/0'"));

/** An open ticket as /api/pos/tickets answers (the fields this test reads). */
interface TicketJson {
  id: string;
  name: string;
  updated_at: string;
}
type TicketsJson = { tickets: TicketJson[] };

describe('open tickets', () => {
  let app: SharedShop;
  const who = {} as Record<'owner' | 'cashier' | 'cashier2', SignedIn>;
  let pinned: Who;

  const { req, ready, login, pinIn } = appClient(() => app.url, PASSWORD);
  const cart = (n: number) => ({ lines: [{ sku: 'LATTE', name: 'Latte', count: n, unit: '3000000000', options: ['Oat'] }] });

  beforeAll(async () => {
    app = await sharedShop('tickets.test', { xpub: XPUB, password: PASSWORD });
    await ready();
    who.owner = await login('owner@tickets.test');
    for (const k of ['cashier', 'cashier2'] as const) {
      const r = await req(who.owner, 'POST', '/api/admin/users', {
        email: `${k}@tickets.test`,
        name: `Staff ${k}`,
        password: PASSWORD,
        role: 'cashier',
      });
      expect(r.status, r.text).toBe(201);
      who[k] = await login(`${k}@tickets.test`);
    }
    expect((await req(who.owner, 'PUT', `/api/admin/users/${who.cashier2.id}/pin`, { pin: '1470' })).status).toBe(204);
    const till = await req(who.owner, 'POST', '/api/admin/terminals', { name: 'Bar' });
    expect(till.status, till.text).toBe(201);
    const terminal = firstCookie(till, 'counter_terminal');
    pinned = await pinIn(terminal, who.cashier2.id, '1470');
  }, 240_000);

  it('saves a sale as a ticket that another cashier (PIN session) lists and picks up; two updates of one version: one 409', async () => {
    const saved = await req<TicketJson>(who.cashier, 'POST', '/api/pos/tickets', { name: 'Table 4', cart: cart(1), total: '30' });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({ name: 'Table 4', cart: cart(1), total: '30', user: 'Staff cashier' });
    expect(saved.body.id).toMatch(/^tk_/);
    const other = await req<TicketJson>(who.cashier, 'POST', '/api/pos/tickets', { name: 'Bar tab', cart: [], total: '0' });
    expect(other.status).toBe(201);
    const list = await req<TicketsJson>(pinned, 'GET', '/api/pos/tickets');
    expect(list.status, list.text).toBe(200);
    expect(list.body.tickets.map((t: { name: string }) => t.name)).toEqual(['Table 4', 'Bar tab']);
    const read = list.body.tickets[0];
    // Two cashiers update the same version at once: exactly one wins (a ticket), the other a conflict (an error).
    const both = await Promise.all([
      req<Partial<TicketJson & ErrorJson>>(pinned, 'PUT', `/api/pos/tickets/${read.id}`, {
        cart: cart(2),
        total: '60',
        updated_at: read.updated_at,
      }),
      req<Partial<TicketJson & ErrorJson>>(who.cashier, 'PUT', `/api/pos/tickets/${read.id}`, {
        cart: cart(3),
        total: '90',
        updated_at: read.updated_at,
      }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.error).toBe('conflict');
    const won = both.find((r) => r.status === 200)!.body;
    expect(won.updated_at).not.toBe(read.updated_at);
    // A stale version stays refused; the fresh one is taken.
    expect(
      (await req(who.cashier, 'PUT', `/api/pos/tickets/${read.id}`, { cart: cart(4), total: '120', updated_at: read.updated_at })).status,
    ).toBe(409);
    const fresh = await req(who.cashier, 'PUT', `/api/pos/tickets/${read.id}`, { cart: cart(4), total: '120', updated_at: won.updated_at });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body).toMatchObject({ cart: cart(4), total: '120', user: 'Staff cashier' });
    // Deleted: gone from the list, and a later update is 404.
    expect((await req(pinned, 'DELETE', `/api/pos/tickets/${other.body.id}`)).status).toBe(204);
    expect((await req(pinned, 'DELETE', `/api/pos/tickets/${other.body.id}`)).status).toBe(404);
    expect(
      (await req(pinned, 'PUT', `/api/pos/tickets/${other.body.id}`, { cart: [], total: '0', updated_at: other.body.updated_at })).status,
    ).toBe(404);
    expect((await req<TicketsJson>(pinned, 'GET', '/api/pos/tickets')).body.tickets.map((t: { name: string }) => t.name)).toEqual([
      'Table 4',
    ]);
  });

  it('is for till users only, and refuses bad input with a 400 naming the field', async () => {
    expect((await req(null, 'GET', '/api/pos/tickets')).status).toBe(401);
    expect((await req({ key: app.key }, 'GET', '/api/pos/tickets')).status).toBe(403);
    expect((await req({ key: app.key }, 'POST', '/api/pos/tickets', { name: 'x', cart: [], total: '1' })).status).toBe(403);
    const big = { lines: [{ name: 'x'.repeat(70 * 1024) }] };
    const cases: [unknown, string][] = [
      [{ name: 'T', cart: big, total: '1' }, 'cart'],
      [{ name: '', cart: [], total: '1' }, 'name'],
      [{ name: 'T\u0000', cart: [], total: '1' }, 'name'],
      [{ name: 'T', cart: 'x', total: '1' }, 'cart'],
      [{ name: 'T', cart: [], total: 'abc' }, 'total'],
      [{ name: 'T', cart: [], total: '1', extra: 1 }, 'extra'],
      [{ cart: [], total: '1' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const r = await req<ErrorJson>(who.cashier, 'POST', '/api/pos/tickets', body);
      expect(r.status, `${JSON.stringify(body).slice(0, 80)} → ${r.text.slice(0, 200)}`).toBe(400);
      expect(r.body.message.startsWith(`${field}: `), r.body.message).toBe(true);
    }
    const t = await req<TicketJson>(who.cashier, 'POST', '/api/pos/tickets', { name: 'Table 9', cart: [], total: '0' });
    const put = await req<ErrorJson>(who.cashier, 'PUT', `/api/pos/tickets/${t.body.id}`, { cart: [], total: '0' });
    expect(put.status).toBe(400);
    expect(put.body.message).toMatch(/^updated_at: /);
    expect((await req(who.cashier, 'DELETE', `/api/pos/tickets/${t.body.id}`)).status).toBe(204);
  });

  it('charges a ticket: order_reference is its name, it closes once the payment is confirmed, then ticket_id is refused', async () => {
    const t = await req<TicketJson>(who.cashier, 'POST', '/api/pos/tickets', { name: 'Table 7', cart: cart(1), total: '30' });
    const sale = { items: [{ type: 'item', id: 'LATTE', name: 'Latte', count: 1, unit: '30' }], ticket_id: t.body.id };
    const unknown = await req<ErrorJson>(who.cashier, 'POST', '/api/v1/payments', { ...sale, ticket_id: 'tk_nope' });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.message).toMatch(/^ticket_id: /);
    const paid = await req<{ id: string }>(who.cashier, 'POST', '/api/v1/payments', sale);
    expect(paid.status, paid.text).toBe(201);
    const got = await req<{ payment: { order_reference: string } }>(who.owner, 'GET', `/api/v1/payments/${paid.body.id}`);
    expect(got.body.payment.order_reference).toBe('Table 7');
    // Unpaid, the ticket is still open; confirmed (settled by the owner), it closes.
    expect((await req<TicketsJson>(who.cashier, 'GET', '/api/pos/tickets')).body.tickets.map((x: { name: string }) => x.name)).toContain(
      'Table 7',
    );
    const settled = await req(who.owner, 'POST', `/api/v1/payments/${paid.body.id}/mark`, { as: 'settled' });
    expect(settled.status, settled.text).toBe(200);
    expect(
      (await req<TicketsJson>(who.cashier, 'GET', '/api/pos/tickets')).body.tickets.map((x: { name: string }) => x.name),
    ).not.toContain('Table 7');
    const again = await req<ErrorJson>(who.cashier, 'POST', '/api/v1/payments', sale);
    expect(again.status, again.text).toBe(400);
    expect(again.body.message).toMatch(/^ticket_id: /);
  });
});
