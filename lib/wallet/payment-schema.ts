// The Connect Payment as a wallet reads it: lenient where relays in the wild are sloppy in ways
// that cannot cost the user anything, strict wherever money or authenticity is at stake.
//
// Accepted here, refused by lib/connect's ConnectPaymentSchema (which Counter's relay keeps to):
//  - `items: null` (what the Go library emits for an empty list) or missing: no lines;
//  - `signing` items carrying `count`, `unit`, `total` or `tax` (Fractal sends count 1, unit "0",
//    total "0"): the amounts must still parse and be zero, then they are dropped;
//  - `total` of zero ("0.00000000"), e.g. a data-signing payment whose only output is OP_RETURN;
//  - an empty `vendor_name` (shown with a placeholder).
// Still refused: amounts that do not parse (or have more than 8 decimals), a signing item with a
// non-zero amount, every output rule (a p2pkh output needs a valid address and an amount > 0, a
// data output valid hex of at most 80 bytes, at least one output), negative totals, fiat without
// a currency, and everything the envelope check refuses (signature, h, version).
import * as z from 'zod';
import {
  isProvided,
  koinuString,
  tryKoinu,
  ConnectItemSchema,
  ConnectPaymentSchema,
  type ConnectItem,
  type ConnectPayment,
} from '../connect';

const SIGNING_AMOUNTS = ['unit', 'total', 'tax'] as const;

/** A line item: strict for every type, except that a signing item may carry zero amounts. */
export const WalletItemSchema = z
  .object(ConnectItemSchema.shape)
  .superRefine((item, ctx) => {
    if (item.type !== 'signing') {
      const strict = ConnectItemSchema.safeParse(item);
      if (!strict.success) for (const i of strict.error.issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
      return;
    }
    for (const f of SIGNING_AMOUNTS) {
      const k = tryKoinu(item[f]); // unparseable amounts were already refused by the field schema
      if (k !== undefined && k !== 0n)
        ctx.addIssue({ code: 'custom', path: [f], message: `a signing item must not carry an amount (${f} is ${item[f]})` });
    }
  })
  .transform((item): ConnectItem => {
    if (item.type !== 'signing') return item;
    const { count: _count, unit: _unit, total: _total, tax: _tax, ...rest } = item;
    return rest;
  });

export const WalletPaymentSchema = z
  .object({
    ...ConnectPaymentSchema.shape,
    vendor_name: z.string(),
    total: koinuString('nonnegative'),
    items: z
      .array(WalletItemSchema)
      .nullish()
      .transform((a) => a ?? []),
  })
  .superRefine((p, ctx) => {
    if ((isProvided(p.fiat_total) || isProvided(p.fiat_tax)) && !isProvided(p.fiat_currency)) {
      ctx.addIssue({ code: 'custom', path: ['fiat_currency'], message: 'fiat_currency is required when fiat_total or fiat_tax is given' });
    }
  });

/** Parse a verified payload as a wallet does. The result has the spec's Connect Payment type. */
export function parseWalletPayment(json: unknown): z.ZodSafeParseResult<ConnectPayment> {
  return WalletPaymentSchema.safeParse(json);
}
