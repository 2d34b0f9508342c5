// POST /api/v1/payments/<id>/mark on the real built app (docs/api.md#payments-from-any-wallet): scope payments:write,
// manager or owner sessions (a cashier gets 403), 409 outside unpaid/accepted, 400 on a bad body;
// the decision shows in the payment body and on the back-office invoice page.
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { testXpub } from '../helpers/keys';
import { signInRoles } from '../helpers/sessions';
import { request } from '../helpers/client';
import type { ErrorJson, EventJson } from '../helpers/json-shapes';

const PASSWORD = 'long enough password';

let shop: SharedShop;
interface Who {
  cookie: string;
  csrf: string;
}
const who: Record<'owner' | 'manager' | 'cashier', Who> = {} as never;

/** A page's own content, without its scripts (which carry the whole message catalog). */
const rendered = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, '');

/** A request with the API key or as a signed-in user; `T` is how the test reads the JSON answer. */
const as = <T = unknown>(w: Who | 'key', method: string, path: string, body?: unknown) =>
  request<T>(shop.url, w === 'key' ? { key: shop.key } : w, method, path, body);
async function newPayment(): Promise<string> {
  const r = await as<{ id: string }>('key', 'POST', '/api/v1/payments', {
    items: [{ type: 'item', id: 'SKU', name: 'Thing', count: 1, unit: '2.5' }],
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

beforeAll(async () => {
  shop = await sharedShop('mark.test', { xpub: testXpub(201), password: PASSWORD });
  Object.assign(who, await signInRoles(shop.url, shop.domain, PASSWORD, ['manager', 'cashier']));
}, 180_000);

describe('POST /api/v1/payments/<id>/mark', () => {
  it('a new payment shows amount_paid 0, amount_due = total, no txids, no decision', async () => {
    const id = await newPayment();
    const r = await as('key', 'GET', `/api/v1/payments/${id}`);
    expect(r.body).toMatchObject({ amount_paid: '0', amount_due: '2.5', txids: [], decision: null, exception: null });
  });

  it('a cashier session gets 403; a manager settles: confirmed, marked_settled, decision kept; again → 409', async () => {
    const id = await newPayment();
    const c = await as<ErrorJson>(who.cashier, 'POST', `/api/v1/payments/${id}/mark`, { as: 'settled', note: 'x' });
    expect(c.status).toBe(403);
    expect(c.body.error).toBe('forbidden');
    const m = await as(who.manager, 'POST', `/api/v1/payments/${id}/mark`, { as: 'settled', note: 'paid in cash' });
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({
      id,
      status: 'confirmed',
      exception: 'marked_settled',
      decision: { as: 'settled', note: 'paid in cash', by: 'manager@mark.test' },
    });
    const again = await as<ErrorJson>(who.owner, 'POST', `/api/v1/payments/${id}/mark`, { as: 'invalid' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('conflict');
    const page = await as(who.manager, 'GET', `/admin/invoices/${id}`);
    expect(page.status).toBe(200);
    expect(page.text.replace(/<!-- -->/g, '')).toContain('marked settled by manager@mark.test');
    expect(page.text).toContain('paid in cash');
    const ev = await as<{ events: EventJson[] }>('key', 'GET', '/api/v1/events');
    expect(ev.body.events.filter((e: EventJson) => e.payment?.id === id).map((e: EventJson) => e.type)).toEqual(['payment.confirmed']);
  });

  it('an API key with payments:write marks invalid: declined with the reason; the page offers the buttons while undecided', async () => {
    const id = await newPayment();
    const page = await as(who.owner, 'GET', `/admin/invoices/${id}`);
    expect(rendered(page.text)).toContain('Mark settled');
    expect(rendered(page.text)).toContain('Mark invalid');
    const r = await as('key', 'POST', `/api/v1/payments/${id}/mark`, { as: 'invalid', note: '' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'declined',
      exception: 'marked_invalid',
      reason: 'marked invalid by merchant',
      decision: { as: 'invalid' },
    });
    expect(rendered((await as(who.owner, 'GET', `/admin/invoices/${id}`)).text)).not.toContain('Mark settled');
  });

  it('bad bodies get 400 invalid_request naming the field; an unknown id 404', async () => {
    const id = await newPayment();
    for (const b of [
      '',
      'nope',
      { as: 'paid' },
      { as: 'settled', note: 5 },
      { as: 'settled', extra: 1 },
      { as: 'settled', note: 'a\u0000b' },
    ]) {
      const r = await as<ErrorJson>('key', 'POST', `/api/v1/payments/${id}/mark`, b);
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(r.body.error).toBe('invalid_request');
    }
    expect((await as<{ status: string }>('key', 'GET', `/api/v1/payments/${id}`)).body.status).toBe('unpaid');
    expect((await as('key', 'POST', '/api/v1/payments/nope/mark', { as: 'settled' })).status).toBe(404);
  });
});
