// The emailed receipt of a cash sale (docs/counter.md#cash) says Cash, the cash received and the
// change, and names no address or DOGE paid; a fiat-priced Dogecoin sale keeps its DOGE line and
// address. Pure (lib/receipts/email.ts renders a Receipt).
import { describe, expect, it } from 'vitest';
import { renderReceiptEmail } from '@/lib/receipts/email';
import type { Receipt } from '@/lib/receipts/receipt';

const base: Receipt = {
  id: 'abcdefghijklmnop',
  storeName: 'Cash Café',
  storeAddress: '',
  storeUrl: '',
  timezone: 'UTC',
  currency: 'USD',
  lines: [{ kind: 'item', name: 'Tea', count: 3, unit: '2.45', tax: '0.10', total: '7.45' }],
  total: '7.45',
  taxes: '0.10',
  dogeTotal: '59.6',
  rate: { value: '0.125', source: 'fixed:0.125', at: '2026-11-27T10:00:00.000Z', atText: '27 Nov 2026, 10:00 UTC' },
  state: 'confirmed',
  status: 'confirmed',
  txid: '',
  confirmations: 0,
  required: 0,
  fiatTotal: '7.45',
  fiatTax: '0.10',
  fiatCurrency: 'USD',
  orderReference: 'POS-1',
  address: '',
  createdAt: '2026-11-27T10:00:00.000Z',
  confirmedAt: '2026-11-27T10:00:00.000Z',
  createdAtText: '27 Nov 2026, 10:00 UTC',
  confirmedAtText: '27 Nov 2026, 10:00 UTC',
  createdBy: null,
  tender: 'cash',
  cashReceived: '20.00',
  change: '12.55',
  terminalId: null,
};

describe('receipt email of a cash sale', () => {
  it('says Cash with the cash received and the change, and no Dogecoin address or DOGE paid', () => {
    const m = renderReceiptEmail(base);
    expect(m.text).toContain('Paid with Cash: $20.00');
    expect(m.text).toContain('Change: $12.55');
    expect(m.text).not.toContain('Paid in Dogecoin');
    expect(m.text).not.toContain('59.6 DOGE');
    expect(m.html).toContain('Change</td><td style="text-align:right">$12.55');
    expect(m.html).not.toContain('Paid in Dogecoin');
  });

  it('a Dogecoin sale keeps the DOGE paid and the address', () => {
    const m = renderReceiptEmail({ ...base, tender: 'doge', cashReceived: '', change: '', address: 'nXyz', txid: 'ab'.repeat(32) });
    expect(m.text).toContain('Paid 59.6 DOGE');
    expect(m.text).toContain('Paid in Dogecoin to nXyz');
    expect(m.text).not.toContain('Paid with Cash');
    expect(m.text).not.toContain('Change:');
  });
});

describe("the emailed receipt's options", () => {
  it("shows an item's options under its name, in the text and the HTML (escaped)", () => {
    const withOptions: Receipt = {
      ...base,
      lines: [{ kind: 'item', name: 'Latte', desc: 'Oat, <Extra> shot', count: 1, unit: '7.45', tax: '', total: '7.45' }],
    };
    const m = renderReceiptEmail(withOptions);
    expect(m.text).toMatch(/Latte\n {2}Oat, <Extra> shot\n/);
    expect(m.html).toContain('Latte<br><small style="color:#555">Oat, &lt;Extra&gt; shot</small>');
  });
});
