// A payment's lines as stored (payment_line), the same for a wallet payment and a cash sale:
// each priced line with its store, position, DOGE amounts, its fiat unit and tax, and the
// options it was sold with (docs/catalog.md#options).
import type { PricedLine } from './request';
import type { SoldOption } from './options';

/** What a stored line keeps beside its DOGE amounts. */
export interface StoredLineExtras {
  fiatUnit: bigint | null;
  fiatTax: bigint | null;
  options: SoldOption[] | null;
}

export function paymentLineRows(storeId: number, lines: readonly PricedLine[], extras: (idx: number) => StoredLineExtras) {
  return lines.map((l, idx) => {
    const x = extras(idx);
    return {
      storeId,
      idx,
      type: l.type,
      itemId: l.id,
      name: l.name,
      description: l.desc,
      icon: l.icon,
      count: l.count,
      unit: l.unit,
      total: l.total,
      tax: l.tax,
      fiatUnit: x.fiatUnit,
      fiatTax: x.fiatTax,
      ...(x.options ? { options: x.options as object[] } : {}),
    };
  });
}
