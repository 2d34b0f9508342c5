// Cash as a tender (docs/counter.md#cash) on the real built app (devnet, PGlite), from the sale
// to the end of the shift: a cash sale is recorded confirmed at once with tender, cash_received
// and change, has no wallet-facing state (/dc, /relay and the checkout page answer 404), and fires
// payment.confirmed with tender "cash"; bad cash sales are refused naming the field; the sales
// report splits by tender and by terminal (JSON and CSV), the invoice list filters by terminal and
// tender (docs/counter.md#reports); Close shift records counted, expected and the difference in
// the audit log, a cashier only for itself (docs/counter.md#close-shift); and a Dogecoin sale left
// waiting at a lock is seen through, and paid, by the next cashier on the same till. The tests
// count on one another's sales. Which stores take cash, and in what minor units, is
// counter-cash-pricing.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/wait';
import { OpenApiChecker, loadOpenApi } from '../helpers/openapi';
import { cashCounter, tea } from '../helpers/cash-counter';
import type { AuditEntryJson, ErrorJson, InvoiceJson, ListedPaymentJson, SalesReportJson, TerminalSalesJson } from '../helpers/json-shapes';

/** docs/openapi.yaml, whose response schemas are closed: the cash fields must be documented. */
const openapi = new OpenApiChecker(loadOpenApi());
const documented = (method: string, template: string, r: { status: number; headers: Headers; text: string }) =>
  openapi.check(method, template, r);

/** A drawer as /api/pos/shift and its close answer (the fields this test reads beyond its matchers). */
interface DrawerJson {
  expected: string;
  difference: string;
}

describe('cash as a tender', () => {
  const { who, till, pinned, hooks, req, pinIn, sale, start, stop } = cashCounter();
  beforeAll(start, 240_000);
  afterAll(stop);

  it('records a cash sale confirmed at once: tender, cash_received, change, the DOGE total at the locked rate, its terminal; Idempotency-Key replays it', async () => {
    const r = await sale(pinned.front1, tea(), 'cash-1');
    expect(r.status, r.text).toBe(201);
    // 3 × 2.45 + 0.10 = 7.45 USD; at 0.125 USD/DOGE: 3 × 19.6 + 0.8 = 59.6 DOGE.
    expect(r.body).toMatchObject({
      status: 'confirmed',
      tender: 'cash',
      cash_received: '20.00',
      change: '12.55',
      total: '59.6',
      fiat_total: '7.45',
      fiat_tax: '0.10',
      fiat_currency: 'USD',
      rate: { pair: 'DOGE/USD', value: '0.125' },
      uri: null,
      connect_uri: null,
      envelope_url: null,
      relay: null,
      checkout_url: null,
      payment: null,
      terminal: 'Front counter',
      exception: null,
      expired: false,
      amount_paid: '0',
      amount_due: '0',
      txids: [],
    });
    expect(r.body.confirmed_at).toBeTruthy();
    documented('post', '/api/v1/payments', r);
    const got = await req(pinned.front1, 'GET', `/api/v1/payments/${r.body.id}`);
    expect(got.status).toBe(200);
    documented('get', '/api/v1/payments/{id}', got);
    expect(got.body).toMatchObject({ status: 'confirmed', tender: 'cash', cash_received: '20.00', change: '12.55', total: '59.6' });

    const again = await sale(pinned.front1, tea(), 'cash-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(r.body.id);
    const other = await sale(pinned.front1, tea({ cash_received: '50' }), 'cash-1');
    expect(other.status, other.text).toBe(409);

    // Exact cash: no change. Every other payment says tender "doge" and has no cash fields.
    const exact = await sale(pinned.front1, tea({ cash_received: '7.45' }));
    expect(exact.body).toMatchObject({ status: 'confirmed', cash_received: '7.45', change: '0.00' });
    const doge = await sale(pinned.front1, { tender: 'doge', items: [{ type: 'item', id: 'D', name: 'Doge tea', count: 1, unit: '3' }] });
    expect(doge.status, doge.text).toBe(201);
    expect(doge.body).toMatchObject({ tender: 'doge', cash_received: null, change: null });
    documented('post', '/api/v1/payments', doge);
    const dv = await req(pinned.front1, 'GET', `/api/v1/payments/${doge.body.id}`);
    expect(dv.body).toMatchObject({ status: 'unpaid', tender: 'doge', cash_received: null, change: null });
  });

  it('refuses what a cash sale cannot be, with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [tea({ cash_received: '7.44' }), 'cash_received'], // less than the total
      [tea({ cash_received: '20.001' }), 'cash_received'], // more digits than USD has
      [tea({ cash_received: '-20' }), 'cash_received'],
      [tea({ cash_received: '2e1' }), 'cash_received'],
      [tea({ cash_received: 20 }), 'cash_received'],
      [tea({ cash_received: undefined }), 'cash_received'],
      [tea({ tender: 'card' }), 'tender'],
      [tea({ currency: 'EUR' }), 'currency'],
      [tea({ outputs: [{ type: 'data', data: '00' }] }), 'outputs'],
      [tea({ timeout: 600 }), 'timeout'],
      [tea({ required_confirmations: 0 }), 'required_confirmations'],
      [tea({ items: [{ type: 'item', id: 'X', name: 'Bad\u0000name', count: 1, unit: '1' }] }), 'items[0].name'],
    ];
    for (const [body, field] of cases) {
      const r = await sale<ErrorJson>(pinned.front1, body);
      expect(r.status, `${JSON.stringify(body)} → ${r.text}`).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.message.startsWith(`${field}:`), r.body.message).toBe(true);
    }
  });

  it('gives a cash sale no wallet-facing state: /dc, /relay/status, /relay/pay and the checkout page answer 404', async () => {
    const r = await sale(pinned.front1, tea());
    expect(r.status).toBe(201);
    const id = r.body.id;
    const pay = await req(null, 'POST', '/relay/pay', { id, tx: '00' });
    expect(pay.status, pay.text).toBe(404);
    expect((await req(null, 'GET', `/dc/${id}`)).status).toBe(404);
    const st = await req(null, 'POST', '/relay/status', { id });
    expect(st.status, st.text).toBe(404);
    expect((await req(null, 'GET', `/checkout/${id}`)).status).toBe(404);
    // A Dogecoin sale still has them (the guard is the tender, not the id).
    const d = await sale(pinned.front1, { items: [{ type: 'item', id: 'D', name: 'Doge tea', count: 1, unit: '3' }] });
    expect((await req(null, 'GET', `/dc/${d.body.id}`)).status).toBe(200);
    expect((await req(null, 'POST', '/relay/status', { id: d.body.id })).status).toBe(200);
  });

  it('fires payment.confirmed with tender "cash", cash_received and change, signed', async () => {
    const r = await sale(pinned.front2, tea({ cash_received: '10.00' }));
    expect(r.status).toBe(201);
    const ev = await until(
      () => Promise.resolve(hooks.events.find((e) => e.body?.payment?.id === r.body.id)),
      (e) => e !== undefined,
      30_000,
    );
    expect(ev!.type).toBe('payment.confirmed');
    expect(ev!.signatureValid).toBe(true);
    expect(ev!.body!.payment).toMatchObject({
      id: r.body.id,
      status: 'confirmed',
      tender: 'cash',
      cash_received: '10.00',
      change: '2.55',
      terminal: 'Front counter',
    });
    expect(hooks.events.filter((e) => e.body?.payment?.id === r.body.id).map((e) => e.type)).toEqual(['payment.confirmed']);
  });

  it('splits the sales report by tender and by terminal, in JSON and CSV; the invoice list filters by terminal and tender', async () => {
    const patio = await sale(
      pinned.patio2,
      tea({ items: [{ type: 'item', id: 'CAKE', name: 'Cake', count: 1, unit: '4.00' }], cash_received: '5' }),
    );
    expect(patio.body).toMatchObject({ total: '32', change: '1.00', terminal: 'Patio' });
    const all = await req<{ invoices: InvoiceJson[] }>(who.owner, 'GET', '/api/admin/invoices?limit=100');
    const rows: InvoiceJson[] = all.body.invoices;
    const rep = await req<SalesReportJson>(who.owner, 'GET', '/api/v1/reports/sales');
    expect(rep.status, rep.text).toBe(200);
    documented('get', '/api/v1/reports/sales', rep);
    // Expected figures from the invoice list: confirmed sales, by tender and by terminal.
    const confirmed = rows.filter((x) => x.status === 'confirmed');
    const cash = confirmed.filter((x) => x.tender === 'cash');
    const koinu = (v: string) => BigInt(Math.round(Number(v) * 1e8)); // totals here are short decimals
    const cents = (v: string) => BigInt(Math.round(Number(v) * 100));
    const sumK = (xs: InvoiceJson[]) => xs.reduce((s, x) => s + koinu(x.total), 0n);
    expect(cash.length).toBe(5); // two in the first test, then one in each of the next three
    expect(rep.body.by_tender.cash.count).toBe(cash.length);
    expect(koinu(rep.body.by_tender.cash.gross)).toBe(sumK(cash));
    expect(rep.body.by_tender.cash.fiat).toEqual([{ currency: 'USD', count: cash.length, gross: expect.any(String) }]);
    expect(cents(rep.body.by_tender.cash.fiat[0].gross)).toBe(cash.reduce((s, x) => s + cents(x.fiat_total), 0n));
    expect(rep.body.by_tender.doge.count).toBe(confirmed.length - cash.length);
    const front = rep.body.by_terminal.find((t: TerminalSalesJson) => t.id === till.front.id);
    const pt = rep.body.by_terminal.find((t: TerminalSalesJson) => t.id === till.patio.id);
    expect(front).toMatchObject({
      name: 'Front counter',
      revoked: false,
      count: confirmed.filter((x) => x.terminal === 'Front counter').length,
    });
    expect(pt).toMatchObject({ name: 'Patio', count: 1, gross: '32', fiat: [{ currency: 'USD', count: 1, gross: '4.00' }] });
    expect(koinu(rep.body.totals.gross)).toBe(rep.body.by_terminal.reduce((s: bigint, t: TerminalSalesJson) => s + koinu(t.gross), 0n));

    const csv = await req(who.owner, 'GET', '/api/v1/reports/sales?format=csv');
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0].endsWith(',tender,terminal,category')).toBe(true);
    const patioLine = lines.find((l) => l.startsWith(`${patio.body.id},`))!;
    expect(patioLine).toMatch(/,cash,Patio,[^,]*$/);

    // The invoice list: only the patio's sales, only cash, and a bad terminal id is 400.
    const onPatio = await req<{ invoices: InvoiceJson[] }>(who.manager, 'GET', `/api/admin/invoices?terminal=${till.patio.id}`);
    expect(onPatio.status, onPatio.text).toBe(200);
    expect(onPatio.body.invoices.map((x: InvoiceJson) => x.id)).toEqual([patio.body.id]);
    const onFront = await req<{ invoices: InvoiceJson[] }>(who.manager, 'GET', `/api/admin/invoices?terminal=${till.front.id}&limit=100`);
    expect(onFront.body.invoices.length).toBe(rows.filter((x) => x.terminal === 'Front counter').length);
    expect(onFront.body.invoices.every((x: InvoiceJson) => x.terminal === 'Front counter')).toBe(true);
    const cashOnly = await req<{ invoices: InvoiceJson[] }>(who.manager, 'GET', '/api/admin/invoices?tender=cash&limit=100');
    expect(cashOnly.body.invoices.length).toBe(rows.filter((x) => x.tender === 'cash').length);
    expect(cashOnly.body.invoices.every((x: InvoiceJson) => x.tender === 'cash')).toBe(true);
    for (const q of ['terminal=../x', 'terminal=%00', 'tender=card']) {
      const bad = await req(who.manager, 'GET', `/api/admin/invoices?${q}`);
      expect(bad.status, q).toBe(400);
    }
  });

  it('Close shift: the cash expected, then counted, expected and the difference in the audit log; a cashier closes only its own shift', async () => {
    const mine = await req<DrawerJson>(pinned.front1, 'GET', '/api/pos/shift');
    expect(mine.status, mine.text).toBe(200);
    const list = await req<{ invoices: InvoiceJson[] }>(who.owner, 'GET', '/api/admin/invoices?tender=cash&limit=100');
    const own = list.body.invoices.filter((x: InvoiceJson) => x.status === 'confirmed');
    // The cashier's own cash sales: those rung up by its PIN session (cashier2 made two others).
    const cents = (v: string) => BigInt(Math.round(Number(v) * 100));
    const all = own.reduce((s: bigint, x: InvoiceJson) => s + cents(x.fiat_total), 0n);
    expect(mine.body).toMatchObject({ user_id: who.cashier.id, currency: 'USD' });
    expect(cents(mine.body.expected)).toBe(all - cents('7.45') - cents('4.00'));

    // Authz: a cashier neither reads nor closes another's shift, by PIN or by password.
    expect((await req(pinned.front1, 'GET', `/api/pos/shift?user_id=${who.cashier2.id}`)).status).toBe(403);
    expect((await req(pinned.front1, 'POST', '/api/pos/shift/close', { cash_counted: '1', user_id: who.cashier2.id })).status).toBe(403);
    expect((await req(who.cashier, 'POST', '/api/pos/shift/close', { cash_counted: '1', user_id: who.cashier2.id })).status).toBe(403);
    for (const bad of [{}, { cash_counted: 'abc' }, { cash_counted: '1.234' }, { cash_counted: -1 }, { cash_counted: '1', extra: 1 }]) {
      const r = await req(pinned.front2, 'POST', '/api/pos/shift/close', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }

    const audit0 = await req<{ entries: AuditEntryJson[] }>(who.owner, 'GET', '/api/admin/audit');
    expect(audit0.body.entries.some((e: AuditEntryJson) => e.action === 'shift.close' && e.changes.user_id === who.cashier2.id)).toBe(
      false,
    );
    const closed = await req<DrawerJson>(pinned.front1, 'POST', '/api/pos/shift/close', { cash_counted: '50' });
    expect(closed.status, closed.text).toBe(200);
    const diff = cents('50') - cents(mine.body.expected);
    expect(closed.body).toMatchObject({ user_id: who.cashier.id, currency: 'USD', expected: mine.body.expected, counted: '50.00' });
    expect(cents(closed.body.difference)).toBe(diff);
    const audit = await req<{ entries: AuditEntryJson[] }>(who.owner, 'GET', '/api/admin/audit');
    const entry = audit.body.entries.find((e: AuditEntryJson) => e.action === 'shift.close');
    expect(entry).toMatchObject({
      user: 'cashier@cash.test',
      changes: {
        user_id: who.cashier.id,
        expected: mine.body.expected,
        counted: '50.00',
        difference: closed.body.difference,
        currency: 'USD',
      },
    });
    // A new shift starts: nothing expected until the next cash sale.
    const after = await req(pinned.front1, 'GET', '/api/pos/shift');
    expect(after.body).toMatchObject({ expected: '0.00', sales: 0 });
    const next = await sale(pinned.front1, tea({ cash_received: '10' }));
    expect(next.status).toBe(201);
    expect((await req(pinned.front1, 'GET', '/api/pos/shift')).body).toMatchObject({ expected: '7.45', sales: 1 });

    // A manager may close a cashier's shift; the audit names the manager as actor and the cashier's id.
    const byManager = await req(who.manager, 'POST', '/api/pos/shift/close', { cash_counted: '11.45', user_id: who.cashier2.id });
    expect(byManager.status, byManager.text).toBe(200);
    expect(byManager.body).toMatchObject({ user_id: who.cashier2.id, expected: '11.45', difference: '0.00' });
    const audit2 = await req<{ entries: AuditEntryJson[] }>(who.owner, 'GET', '/api/admin/audit');
    expect(audit2.body.entries.find((e: AuditEntryJson) => e.action === 'shift.close')).toMatchObject({
      user: 'manager@cash.test',
      changes: { user_id: who.cashier2.id },
    });
  });

  it('a Dogecoin sale left waiting at a lock is seen through by the next cashier on the same till, and turns paid', async () => {
    const d = await sale(pinned.front1, { items: [{ type: 'item', id: 'W', name: 'Waiting tea', count: 1, unit: '5' }] });
    expect(d.status, d.text).toBe(201);
    // Lock: the PIN session ends.
    expect((await req(pinned.front1, 'POST', '/api/auth/logout', {})).status).toBeLessThan(300);
    expect((await req(pinned.front1, 'GET', `/api/v1/payments/${d.body.id}`)).status).toBe(401);
    const next = await pinIn(till.front.cookie, who.cashier2.id, '1470');
    const seen = await req<{ status: string }>(next, 'GET', `/api/v1/payments/${d.body.id}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.status).toBe('unpaid');
    const listed = await req<{ payments: ListedPaymentJson[] }>(next, 'GET', '/api/v1/payments?limit=50');
    expect(listed.body.payments.map((p: ListedPaymentJson) => p.id)).toContain(d.body.id);
    // The same cashier on another till does not see it; nor with its password session.
    expect((await req(pinned.patio2, 'GET', `/api/v1/payments/${d.body.id}`)).status).toBe(404);
    expect((await req(who.cashier2, 'GET', `/api/v1/payments/${d.body.id}`)).status).toBe(404);

    const address = /^dogecoin:([^?]+)\?/.exec(d.body.uri)![1];
    const sent = await req(null, 'POST', '/demo/api/send', { address, amount: '5' });
    expect(sent.status, sent.text).toBe(200);
    await req(null, 'POST', '/demo/api/mine', { blocks: 1 });
    const paid = await until(
      () => req<{ status: string } | null>(next, 'GET', `/api/v1/payments/${d.body.id}`),
      (x) => x.body?.status === 'confirmed',
      30_000,
    );
    expect(paid.body).toMatchObject({ status: 'confirmed', tender: 'doge', terminal: 'Front counter' });
    // The next cashier prints its receipt; the same cashier on another till does not see it.
    const receipt = await req(next, 'GET', `/pos/receipt/${d.body.id}`);
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain('data-testid="receipt"');
    expect((await req(pinned.patio2, 'GET', `/pos/receipt/${d.body.id}`)).status).toBe(404);
  });
});
