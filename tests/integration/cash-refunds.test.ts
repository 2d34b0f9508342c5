// Cash refunds (docs/counter.md#cash-refunds) on the real built app (devnet, PGlite): a cash
// sale refunded through POST /api/v1/payments/<id>/refunds is confirmed at once with tender
// "cash", the cash handed back and its DOGE at the sale's locked rate, and no address or links;
// the refunds of a sale never hand back more than it took, one after another or at once; a PIN
// session and a cashier get 403, bad input a 400 naming the field; the sales report counts it in
// totals.refunds and by_tender.cash; My shift's cash expected drops for the user who recorded it.
import { beforeAll, describe, expect, it } from 'vitest';
import { REGTEST, hdFromSeed, serializeXpub, derivePath } from '@/lib/doge';
import { until } from '../helpers/wait';
import { sharedShop, type SharedShop } from '../helpers/shared-app';
import { OpenApiChecker, loadOpenApi } from '../helpers/openapi';
import { appClient, firstCookie, type SignedIn, type Who } from '../helpers/client';
import { parseFiatMinor, parseKoinu } from '@/lib/money';
import type { ErrorJson, RefundJson, SalesReportJson, ShiftJson } from '../helpers/json-shapes';

const openapi = new OpenApiChecker(loadOpenApi());
const PASSWORD = 'cash refund password 9';
const XPUB = serializeXpub(derivePath(hdFromSeed(new Uint8Array(32).fill(38), REGTEST), "m/44'/1'/0'"));

/** 3 × 2.45 + 0.10 tax = 7.45 USD; at 0.125 USD per DOGE, 59.6 DOGE. */
const tea = {
  currency: 'USD',
  tender: 'cash',
  cash_received: '20',
  items: [{ type: 'item', id: 'TEA', name: 'Tea', count: 3, unit: '2.45', tax: '0.10' }],
};

describe('cash refunds', () => {
  let app: SharedShop;
  const who = {} as Record<'owner' | 'manager' | 'cashier', SignedIn>;
  let pinned: Who;

  const { req, ready, login, pinIn } = appClient(() => app.url, PASSWORD);
  const cashSale = async (w: Who) => {
    const r = await req<{ id: string }>(w, 'POST', '/api/v1/payments', tea);
    expect(r.status, r.text).toBe(201);
    return r.body.id;
  };
  const refund = <T = unknown>(w: Who | null, id: string, body: unknown) => req<T>(w, 'POST', `/api/v1/payments/${id}/refunds`, body);

  beforeAll(async () => {
    app = await sharedShop('refund.test', { xpub: XPUB, password: PASSWORD });
    await ready();
    who.owner = await login('owner@refund.test');
    for (const k of ['manager', 'cashier'] as const) {
      const r = await req(who.owner, 'POST', '/api/admin/users', {
        email: `${k}@refund.test`,
        name: `Staff ${k}`,
        password: PASSWORD,
        role: k,
      });
      expect(r.status, r.text).toBe(201);
      who[k] = await login(`${k}@refund.test`);
    }
    expect((await req(who.owner, 'PUT', `/api/admin/users/${who.cashier.id}/pin`, { pin: '2580' })).status).toBe(204);
    const till = await req(who.manager, 'POST', '/api/admin/terminals', { name: 'Front counter' });
    expect(till.status, till.text).toBe(201);
    const terminal = firstCookie(till, 'counter_terminal');
    pinned = await pinIn(terminal, who.cashier.id, '2580');
    expect((await req(who.owner, 'PATCH', '/api/admin/settings', { pricing_currency: 'USD' })).status).toBe(200);
    await until(
      () => req<{ currency: string } | null>(who.owner, 'GET', '/api/v1/rates'),
      (x) => x.status === 200 && x.body?.currency === 'USD',
      20_000,
    );
  }, 240_000);

  it('refunds a cash sale in cash at once: confirmed, tender cash, the cash handed back and its DOGE at the locked rate, no address or links', async () => {
    const id = await cashSale(who.manager);
    const r = await refund<{ id: string }>(who.manager, id, { fiat_amount: '2.45', reason: 'spilt' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      payment_id: id,
      status: 'confirmed',
      tender: 'cash',
      fiat_amount: '2.45',
      fiat_currency: 'USD',
      amount: '19.6',
      address: null,
      uri: null,
      connect_uri: null,
      envelope_url: null,
      reason: 'spilt',
    });
    openapi.check('post', '/api/v1/payments/{id}/refunds', r);
    // The rest, asked with no amount: 5.00 USD and exactly the sale's remaining 40 DOGE.
    const over = await refund<ErrorJson>(who.manager, id, { fiat_amount: '5.01' });
    expect(over.status, over.text).toBe(409);
    expect(over.body.error).toBe('conflict');
    const rest = await refund(who.owner, id, {});
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body).toMatchObject({ status: 'confirmed', tender: 'cash', fiat_amount: '5.00', amount: '40' });
    expect((await refund(who.owner, id, { fiat_amount: '0.01' })).status).toBe(409);
    const got = await req<{ refunds: RefundJson[] }>(who.owner, 'GET', `/api/v1/payments/${id}`);
    expect(got.body).toMatchObject({ amount_refunded: '59.6' });
    expect(got.body.refunds.map((x: RefundJson) => x.fiat_amount)).toEqual(['2.45', '5.00']);
    // No wallet ever sees a cash refund.
    expect((await req(null, 'GET', `/dc/${r.body.id}`)).status).toBe(404);
  });

  it('never hands back more than the sale took when refunds race', async () => {
    const id = await cashSale(who.owner);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(who.owner, id, { fiat_amount: '1.00' })));
    const ok = answers.filter((a) => a.status === 201);
    expect(answers.filter((a) => a.status !== 201).every((a) => a.status === 409)).toBe(true);
    expect(ok.length).toBe(7);
    const list = await req<{ refunds: RefundJson[] }>(who.owner, 'GET', `/api/v1/payments/${id}/refunds`);
    expect(list.body.refunds.length).toBe(7);
  });

  it('refuses a PIN session, a cashier, no credentials and bad input with a clear 4xx naming the field', async () => {
    const id = await cashSale(pinned);
    expect((await refund(pinned, id, { fiat_amount: '1.00' })).status).toBe(403);
    expect((await refund(who.cashier, id, { fiat_amount: '1.00' })).status).toBe(403);
    expect((await refund(null, id, { fiat_amount: '1.00' })).status).toBe(401);
    const cases: [unknown, string][] = [
      [{ fiat_amount: '1.00', address: 'nXXXX' }, 'address'],
      [{ amount: '5' }, 'amount'],
      [{ fiat_amount: '1.00', rate: 'now' }, 'rate'],
      [{ fiat_amount: 'abc' }, 'fiat_amount'],
      [{ fiat_amount: '-1' }, 'fiat_amount'],
      [{ fiat_amount: '0' }, 'fiat_amount'],
      [{ fiat_amount: '1.001' }, 'fiat_amount'],
      [{ fiat_amount: '1.00', reason: 'a\u0000b' }, 'reason'],
      [{ fiat_amount: '1', extra: 1 }, ''],
    ];
    for (const [body, field] of cases) {
      const r = await refund<ErrorJson>(who.owner, id, body);
      expect(r.status, `${JSON.stringify(body)} → ${r.text}`).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      if (field) expect(r.body.message).toMatch(new RegExp(`^${field}\\b`));
    }
    expect((await refund(who.owner, 'pay_nope', { fiat_amount: '1.00' })).status).toBe(404);
  });

  it("counts cash refunds in the report (totals.refunds, by_tender.cash) and in the recording user's drawer", async () => {
    const before = await req<SalesReportJson>(who.owner, 'GET', '/api/v1/reports/sales');
    const drawerBefore = await req<ShiftJson>(who.manager, 'GET', '/api/pos/shift');
    expect(drawerBefore.status, drawerBefore.text).toBe(200);
    const cashierBefore = await req<ShiftJson>(pinned, 'GET', '/api/pos/shift');
    const id = await cashSale(pinned); // the cashier's sale: 7.45 in its drawer
    const r = await refund(who.manager, id, { fiat_amount: '1.25', reason: 'cold' }); // 10 DOGE, out of the manager's drawer
    expect(r.status, r.text).toBe(201);
    const after = await req<SalesReportJson>(who.owner, 'GET', '/api/v1/reports/sales');
    openapi.check('get', '/api/v1/reports/sales', after);
    const koinu = parseKoinu;
    const cents = (s: string) => parseFiatMinor(s, 'USD');
    expect(koinu(after.body.totals.refunds) - koinu(before.body.totals.refunds)).toBe(1_000_000_000n);
    expect(koinu(after.body.by_tender.cash.gross) - koinu(before.body.by_tender.cash.gross)).toBe(koinu('59.6') - 1_000_000_000n);
    const usd = (b: SalesReportJson) => cents(b.by_tender.cash.fiat.find((f) => f.currency === 'USD')!.gross);
    expect(usd(after.body) - usd(before.body)).toBe(745n - 125n);
    const drawerAfter = await req<ShiftJson>(who.manager, 'GET', '/api/pos/shift');
    expect(cents(drawerAfter.body.expected) - cents(drawerBefore.body.expected)).toBe(-125n);
    expect(drawerAfter.body.sales).toBe(drawerBefore.body.sales);
    const cashierAfter = await req<ShiftJson>(pinned, 'GET', '/api/pos/shift');
    expect(cents(cashierAfter.body.expected) - cents(cashierBefore.body.expected)).toBe(745n);
  });
});
