// What the back-office invoice page shows of refunds (docs/api.md#refunds): how much may still be
// refunded (the Refund button shows only then), and each open refund's QR code (its `uri`)
// for the merchant's wallet, rendered on the server as SVG.
import QRCode from 'qrcode';
import { formatFiatMinor, formatKoinu, parseFiatMinor, parseKoinu } from '../money';
import { refundable } from './request';

/** The refundable amount as DOGE text, or null when nothing is (nothing paid, or all refunded). */
export function refundableOf(amountPaid: string, refunds: readonly { status: unknown; amount: unknown }[]): string | null {
  let paid: bigint;
  try {
    paid = parseKoinu(amountPaid);
  } catch {
    return null;
  }
  const pending = refunds.reduce((s, r) => (r.status === 'declined' ? s : s + parseKoinu(String(r.amount))), 0n);
  const left = refundable(paid, pending);
  return left >= 1_000_000n ? formatKoinu(left) : null;
}

/**
 * What is left to refund of a cash sale (docs/counter.md#cash-refunds), in its currency's fixed
 * form, or null when nothing is: the sale's fiat total less its refunds that have not failed.
 */
export function cashRefundableOf(
  fiatTotal: string,
  currency: string,
  refunds: readonly { status: unknown; fiat_amount?: unknown }[],
): string | null {
  try {
    let left = parseFiatMinor(fiatTotal, currency);
    for (const r of refunds)
      if (r.status !== 'declined' && typeof r.fiat_amount === 'string' && r.fiat_amount) left -= parseFiatMinor(r.fiat_amount, currency);
    return left > 0n ? formatFiatMinor(left, currency) : null;
  } catch {
    return null;
  }
}

/** The QR code (SVG text) of each unpaid refund's uri, by refund id. */
export async function refundQrSvgs(refunds: readonly { id: unknown; status: unknown; uri: unknown }[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const r of refunds) {
    if (r.status !== 'unpaid' || !r.uri) continue;
    out.set(String(r.id), await QRCode.toString(String(r.uri), { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }));
  }
  return out;
}
