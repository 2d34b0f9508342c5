// One payment's receipt as the page and the email show it (docs/using-counter.md#reports-and-receipts): the store, the lines
// with their tax adding up to the total, the fiat amounts if priced in fiat, the times in the
// store's zone, the transaction.
import type { Db } from '../db';
import { formatKoinu } from '../money';
import { tillState } from '../payments';
import { formatStoreTime, storeTimeZone } from '../time';
import { fiatReceiptLines, hasFiatLines, receiptLines, type ReceiptLine } from './model';
import { findStore, inStore } from '../stores';

export interface Receipt {
  id: string;
  storeName: string;
  storeAddress: string;
  storeUrl: string;
  /** The store's IANA zone in force. */
  timezone: string;
  /**
   * The currency of `lines`, `total` and `taxes`: 'DOGE', or the fiat currency a fiat-priced sale
   * was priced in (docs/api.md#pricing-in-a-fiat-currency): then the lines are as priced and `total` is fiat_total.
   */
  currency: string;
  lines: ReceiptLine[];
  total: string;
  /** The taxes included, '' when none. */
  taxes: string;
  /** The DOGE total of the payment (what the customer pays), minimal 8-DP string. */
  dogeTotal: string;
  /** The rate a fiat-priced sale was locked at, its time in the store's zone; null when priced in DOGE. */
  rate: { value: string; source: string; at: string; atText: string } | null;
  state: string;
  /** The payment's own status (unpaid, accepted, confirmed, declined). */
  status: string;
  txid: string;
  confirmations: number;
  required: number;
  fiatTotal: string;
  fiatTax: string;
  fiatCurrency: string;
  orderReference: string;
  address: string;
  createdAt: string;
  confirmedAt: string;
  /** createdAt / confirmedAt in the store's zone, with the zone's name ("24 Nov 2026, 14:05 EST"). */
  createdAtText: string;
  confirmedAtText: string;
  /** The user who started the sale (null for API-key sales and old rows). */
  createdBy: string | null;
  /** docs/counter.md#cash: 'doge' or 'cash'; a cash sale's cash received and change (fiat fixed form, '' otherwise). */
  tender: string;
  cashReceived: string;
  change: string;
  /** The registered till it was rung up on, or null: a PIN session on that till sees it too (docs/counter.md). */
  terminalId: string | null;
}

/** Store `storeId`'s zone in force (setting, else env TZ, else UTC). */
export async function storeZone(db: Db, storeId: number): Promise<string> {
  const s = await findStore(db, storeId);
  return storeTimeZone(s?.timezone);
}

/**
 * The receipt of sale `id` of store `storeId` (another store's sale is none), or of whatever store
 * sold it when `storeId` is 'by-id' (the customer's checkout page, where the unguessable id is the
 * capability). `dateLocale`: the BCP 47 tag its times are written in (lib/i18n INTL_TAG); the
 * store's zone either way.
 */
export async function loadReceipt(
  db: Db,
  storeId: number | 'by-id',
  id: string,
  now = new Date(),
  dateLocale?: string,
): Promise<Receipt | null> {
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  const scope = storeId === 'by-id' ? {} : inStore(storeId);
  const p = await db.prisma.payment.findFirst({ where: { id, ...scope }, include: { lines: { orderBy: { idx: 'asc' } } } });
  if (!p || p.refundOf !== null) return null; // a refund (docs/api.md#refunds) is not a sale with a receipt
  const s = await findStore(db, p.storeId);
  const tz = storeTimeZone(s?.timezone);
  const fiat = hasFiatLines(p.lines, p.fiatCurrency, p.rateValue) && p.fiatTotal !== '';
  const model = fiat ? fiatReceiptLines(p.lines, p.fiatTotal, p.fiatCurrency) : receiptLines(p.lines, p.total);
  const rate =
    p.rateValue && p.fiatCurrency
      ? {
          value: p.rateValue,
          source: p.rateSource,
          at: p.rateAt?.toISOString() ?? '',
          atText: formatStoreTime(p.rateAt, tz, { locale: dateLocale }),
        }
      : null;
  return {
    id: p.id,
    storeName: s?.name ?? 'Counter store',
    storeAddress: s?.address ?? '',
    storeUrl: s?.url ?? '',
    timezone: tz,
    currency: model.currency,
    lines: model.lines,
    total: model.total,
    taxes: model.taxes,
    dogeTotal: formatKoinu(p.total),
    rate,
    state: tillState(p, now),
    status: p.status,
    txid: p.txid ?? '',
    confirmations: p.confirmations,
    required: p.requiredConfirmations,
    fiatTotal: p.fiatTotal,
    fiatTax: p.fiatTax,
    fiatCurrency: p.fiatCurrency,
    orderReference: p.orderReference,
    address: p.address,
    createdAt: p.createdAt.toISOString(),
    confirmedAt: p.confirmedAt?.toISOString() ?? '',
    createdAtText: formatStoreTime(p.createdAt, tz, { locale: dateLocale }),
    confirmedAtText: formatStoreTime(p.confirmedAt, tz, { locale: dateLocale }),
    createdBy: p.createdBy ?? null,
    tender: p.tender === 'cash' ? 'cash' : 'doge',
    cashReceived: p.cashReceived,
    change: p.cashChange,
    terminalId: p.terminalId ?? null,
  };
}
