// Cash as a tender (docs/counter.md#cash) on the real built app (devnet, PGlite), in the store's
// pricing currency: change is exact in currencies with 0 and 3 minor digits (JPY, KWD), and cash
// is refused, naming tender, while the setting cash_enabled is off or the store prices in DOGE.
// A cash sale from the till to the end of the shift is counter-cash-sales.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cashCounter, tea } from '../helpers/cash-counter';
import type { ErrorJson } from '../helpers/json-shapes';

describe('cash as a tender', () => {
  const { who, pinned, req, pricing, sale, start, stop } = cashCounter();
  beforeAll(start, 240_000);
  afterAll(stop);

  it('change is exact in currencies with 0 and 3 minor digits (JPY, KWD)', async () => {
    const owner = who.owner;
    await pricing('JPY');
    const jpy = await sale(owner, {
      currency: 'JPY',
      tender: 'cash',
      cash_received: '2000',
      items: [{ type: 'item', id: 'R', name: 'Ramen', count: 1, unit: '1350' }],
    });
    expect(jpy.status, jpy.text).toBe(201);
    expect(jpy.body).toMatchObject({ fiat_total: '1350', cash_received: '2000', change: '650', total: '10800' });
    const jpyFrac = await sale<ErrorJson>(owner, {
      tender: 'cash',
      cash_received: '2000.5',
      items: [{ type: 'item', id: 'R', name: 'Ramen', count: 1, unit: '1350' }],
    });
    expect(jpyFrac.status).toBe(400);
    expect(jpyFrac.body.message).toMatch(/^cash_received:/);

    await pricing('KWD');
    const kwd = await sale(owner, {
      tender: 'cash',
      cash_received: '5',
      items: [{ type: 'item', id: 'C', name: 'Coffee', count: 3, unit: '0.415' }],
    });
    expect(kwd.status, kwd.text).toBe(201);
    expect(kwd.body).toMatchObject({ fiat_total: '1.245', cash_received: '5.000', change: '3.755', fiat_currency: 'KWD' });
    expect(
      (
        await sale(owner, {
          tender: 'cash',
          cash_received: '5.0001',
          items: [{ type: 'item', id: 'C', name: 'Coffee', count: 1, unit: '0.415' }],
        })
      ).status,
    ).toBe(400);
    await pricing('USD');
  });

  it('cash_enabled off, or a store that prices in DOGE, refuses cash with 400 naming tender', async () => {
    expect(
      (await req<{ cash_enabled: boolean }>(who.owner, 'PATCH', '/api/admin/settings', { cash_enabled: false })).body.cash_enabled,
    ).toBe(false);
    const off = await sale<ErrorJson>(pinned.front2, tea());
    expect(off.status, off.text).toBe(400);
    expect(off.body.message).toMatch(/^tender: .*cash_enabled/);
    expect(
      (await req<{ cash_enabled: boolean }>(who.owner, 'PATCH', '/api/admin/settings', { cash_enabled: true })).body.cash_enabled,
    ).toBe(true);
    expect((await sale(pinned.front2, tea())).status).toBe(201);

    await pricing('DOGE');
    const doge = await sale<ErrorJson>(pinned.front2, tea({ currency: undefined }));
    expect(doge.status, doge.text).toBe(400);
    expect(doge.body.message).toMatch(/^tender: .*fiat/);
    await pricing('USD');
  });
});
