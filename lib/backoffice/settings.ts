// Store settings as the back office edits them (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing): profile, receiving wallet
// (validated for the configured network), relay parameters, risk tiers, fiat rate, tips and
// the webhook. The webhook secret is never returned whole: only a masked form.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type Db, readWalletCount, walletCountKey, writeWalletCount } from '../db';
import { readStore, updateStore, WalletInUseError } from '../stores';
import { isValidAddress, isValidXpub, type Network } from '../doge';
import { formatKoinu, parseKoinu, AmountError } from '../money';
import { BackofficeError, invalid, parseWith } from './errors';
import { webhookUrlProblem } from '../webhooks';
import { CategoriesSetting, storedCategories } from '../catalog';
import { isPrintable, UNPRINTABLE_MESSAGE } from '../text';
import { receiptSettingsData, receiptSettingsFields, receiptSettingsView, type ReceiptSettingsView } from '../receipts';

export const MAX_STORE_ICON_CHARS = 64 * 1024;

export interface SettingsView extends ReceiptSettingsView {
  name: string;
  icon: string;
  address: string;
  url: string;
  store_xpub: string;
  store_address: string;
  fee_per_kb: string;
  max_size: number;
  timeout: number;
  zero_conf_limit: string;
  one_conf_limit: string;
  one_conf_required: number;
  high_conf_required: number;
  fiat_currency: string;
  fiat_rate: string;
  /** DOGE, or the ISO 4217 code prices are set in (docs/using-counter.md#pricing-in-dollars-euros-fiat-pricing). */
  pricing_currency: string;
  tips_enabled: boolean;
  /** The three tip percentages the customer's display offers (docs/counter.md#tips-on-the-customers-display). */
  tip_percents: number[];
  till_lock_sec: number;
  /** docs/counter.md#cash: the till offers Cash when the store prices in fiat, unless this is false. */
  cash_enabled: boolean;
  webhook_url: string;
  webhook_secret_set: boolean;
  webhook_secret_masked: string;
  /** Category names in the till's order (docs/catalog.md). */
  categories: string[];
}

/** Three whole percentages from 1 to 100, each offered once, in the order the display shows them. */
const TipPercents = z
  .array(z.number().int('must be whole percentages').min(1, 'must be from 1 to 100').max(100, 'must be from 1 to 100'))
  .length(3, 'must be three percentages')
  .refine((a) => new Set(a).size === a.length, 'must be three different percentages');

/** The stored percentages, or the default when the row holds none that parse. */
function storedTipPercents(v: unknown): number[] {
  const r = TipPercents.safeParse(v);
  return r.success ? r.data : [10, 15, 20];
}

export function maskSecret(secret: string): string {
  if (!secret) return '';
  return secret.length <= 10 ? '••••••••' : `${secret.slice(0, 6)}••••••••${secret.slice(-2)}`;
}

/** The settings of store `storeId` (the caller's). */
export async function readSettings(db: Db, storeId: number): Promise<SettingsView> {
  const s = await readStore(db, storeId);
  return {
    name: s.name,
    icon: s.icon,
    address: s.address,
    url: s.url,
    store_xpub: s.storeXpub,
    store_address: s.storeAddress,
    fee_per_kb: formatKoinu(s.feePerKb),
    max_size: s.maxSize,
    timeout: s.timeoutSec,
    zero_conf_limit: formatKoinu(s.zeroConfLimit),
    one_conf_limit: formatKoinu(s.oneConfLimit),
    one_conf_required: s.oneConfRequired,
    high_conf_required: s.highConfRequired,
    fiat_currency: s.fiatCurrency,
    fiat_rate: s.fiatRate,
    pricing_currency: s.pricingCurrency,
    tips_enabled: s.tipsEnabled,
    tip_percents: storedTipPercents(s.tipPercents),
    till_lock_sec: s.tillLockSec,
    cash_enabled: s.cashEnabled,
    webhook_url: s.webhookUrl,
    webhook_secret_set: s.webhookSecret !== '',
    webhook_secret_masked: maskSecret(s.webhookSecret),
    categories: storedCategories(s.categories),
    ...receiptSettingsView(s),
  };
}

const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .transform((s) => s.trim());
const amount = z.string().max(30);
const httpUrl = z
  .string()
  .max(2000)
  .refine((s) => {
    if (s === '') return true;
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials');

export const SettingsPatch = z
  .object({
    name: text(100).pipe(z.string().min(1, 'must not be empty')).optional(),
    icon: z.string().max(MAX_STORE_ICON_CHARS, 'is too large').optional(),
    address: text(300).optional(),
    url: httpUrl.optional(),
    store_xpub: text(200).optional(),
    store_address: text(100).optional(),
    fee_per_kb: amount.optional(),
    max_size: z.number().int().min(1000, 'must be at least 1000').max(1_000_000, 'must be at most 1000000').optional(),
    timeout: z.number().int().min(60, 'must be at least 60 seconds').max(86_400, 'must be at most 86400 seconds').optional(),
    zero_conf_limit: amount.optional(),
    one_conf_limit: amount.optional(),
    one_conf_required: z.number().int().min(1).max(100).optional(),
    high_conf_required: z.number().int().min(1).max(100).optional(),
    fiat_currency: z
      .string()
      .regex(/^([A-Z]{3})?$/, 'must be a 3-letter ISO 4217 code like USD, or empty')
      .optional(),
    fiat_rate: z
      .string()
      .regex(/^(\d{1,12}(\.\d{1,8})?)?$/, 'must be a positive decimal (fiat per 1 DOGE), or empty')
      .optional(),
    pricing_currency: z
      .string()
      .regex(/^[A-Z]{3,4}$/, 'must be DOGE or a 3-letter ISO 4217 code like USD')
      .refine((v) => v === 'DOGE' || v.length === 3, 'must be DOGE or a 3-letter ISO 4217 code like USD')
      .optional(),
    tips_enabled: z.boolean().optional(),
    tip_percents: TipPercents.optional(),
    /** Idle seconds before a registered till locks (docs/counter.md); 0 = never. */
    till_lock_sec: z.number().int().min(0).max(86_400).optional(),
    cash_enabled: z.boolean().optional(),
    webhook_url: httpUrl.optional(),
    categories: CategoriesSetting.optional(),
    ...receiptSettingsFields,
  })
  .strict();
export type SettingsPatchInput = z.input<typeof SettingsPatch>;

function koinu(field: string, v: string): bigint {
  try {
    return parseKoinu(v);
  } catch (e) {
    if (e instanceof AmountError) throw invalid(field, e.message);
    throw e;
  }
}

// Store settings are signed into every envelope (vendor_name, vendor_address…), so their text
// follows the one printable-text rule (lib/text/printable.ts, docs/security.md): no control
// character, line separator or bidi override. The one exception is a line feed in the postal
// address, which is printed on several lines.
/** Throws a 400 naming the first settings field whose text breaks the rule. */
function refuseControlCharacters(input: unknown): void {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return;
  for (const [field, v] of Object.entries(input)) {
    if (typeof v !== 'string' || !Object.hasOwn(SettingsPatch.shape, field)) continue; // unknown fields: the schema's 400
    if (!isPrintable(v, { lineFeed: field === 'address' })) {
      throw invalid(field, field === 'address' ? `${UNPRINTABLE_MESSAGE} (only a line feed between lines)` : UNPRINTABLE_MESSAGE);
    }
  }
}

/** Validates and applies a partial update; returns the new view. */
export async function updateSettings(db: Db, storeId: number, network: Network, input: unknown): Promise<SettingsView> {
  refuseControlCharacters(input);
  const p = parseWith(SettingsPatch, input);
  const current = await readStore(db, storeId);
  const data: Record<string, unknown> = {};
  if (p.name !== undefined) data.name = p.name;
  if (p.icon !== undefined) data.icon = validateIcon('icon', p.icon, MAX_STORE_ICON_CHARS);
  if (p.address !== undefined) data.address = p.address;
  if (p.url !== undefined) data.url = p.url;
  if (p.store_xpub !== undefined) {
    if (p.store_xpub && !isValidXpub(p.store_xpub, network))
      throw invalid('store_xpub', `is not an account public key for ${network.name}`);
    if (p.store_xpub !== current.storeXpub) {
      // Each key keeps its own next receive index, so switching back never reuses an address.
      if (current.storeXpub) await writeWalletCount(db, walletCountKey('next_address_index', current.storeXpub), current.nextAddressIndex);
      data.storeXpub = p.store_xpub;
      data.nextAddressIndex = p.store_xpub ? await readWalletCount(db, walletCountKey('next_address_index', p.store_xpub)) : 0;
    }
  }
  if (p.store_address !== undefined) {
    if (p.store_address && !isValidAddress(p.store_address, network))
      throw invalid('store_address', `is not a valid ${network.name} address`);
    data.storeAddress = p.store_address;
  }
  if (p.fee_per_kb !== undefined) {
    const v = koinu('fee_per_kb', p.fee_per_kb);
    if (v <= 0n) throw invalid('fee_per_kb', 'must be greater than 0');
    data.feePerKb = v;
  }
  if (p.max_size !== undefined) data.maxSize = p.max_size;
  if (p.timeout !== undefined) data.timeoutSec = p.timeout;
  if (p.zero_conf_limit !== undefined) data.zeroConfLimit = koinu('zero_conf_limit', p.zero_conf_limit);
  if (p.one_conf_limit !== undefined) data.oneConfLimit = koinu('one_conf_limit', p.one_conf_limit);
  if (p.one_conf_required !== undefined) data.oneConfRequired = p.one_conf_required;
  if (p.high_conf_required !== undefined) data.highConfRequired = p.high_conf_required;
  if (p.fiat_currency !== undefined) data.fiatCurrency = p.fiat_currency;
  if (p.fiat_rate !== undefined) {
    if (p.fiat_rate && Number(p.fiat_rate) <= 0) throw invalid('fiat_rate', 'must be greater than 0');
    data.fiatRate = p.fiat_rate;
  }
  if (p.pricing_currency !== undefined) data.pricingCurrency = p.pricing_currency;
  if (p.tips_enabled !== undefined) data.tipsEnabled = p.tips_enabled;
  if (p.tip_percents !== undefined) data.tipPercents = p.tip_percents;
  if (p.categories !== undefined) data.categories = p.categories;
  if (p.till_lock_sec !== undefined) data.tillLockSec = p.till_lock_sec;
  if (p.cash_enabled !== undefined) data.cashEnabled = p.cash_enabled;
  if (p.webhook_url !== undefined) {
    // No SSRF: a webhook must not point at this machine or a private network (docs/security.md).
    const problem = p.webhook_url ? await webhookUrlProblem(p.webhook_url) : null;
    if (problem) throw invalid('webhook_url', problem);
    data.webhookUrl = p.webhook_url;
  }
  Object.assign(data, receiptSettingsData(p, current));

  const zero = (data.zeroConfLimit as bigint | undefined) ?? current.zeroConfLimit;
  const one = (data.oneConfLimit as bigint | undefined) ?? current.oneConfLimit;
  if (zero > one) throw invalid('zero_conf_limit', 'must not exceed the 1-confirmation limit');
  const oneReq = (data.oneConfRequired as number | undefined) ?? current.oneConfRequired;
  const highReq = (data.highConfRequired as number | undefined) ?? current.highConfRequired;
  if (oneReq > highReq) throw invalid('one_conf_required', 'must not exceed the confirmations required above the limit');
  if ((data.fiatRate ?? current.fiatRate) && !(data.fiatCurrency ?? current.fiatCurrency))
    throw invalid('fiat_currency', 'is required with a fiat rate');

  if (Object.keys(data).length) {
    try {
      await updateStore(db, storeId, data);
    } catch (e) {
      if (e instanceof WalletInUseError) throw new BackofficeError('conflict', e.message, e.field);
      throw e;
    }
  }
  return readSettings(db, storeId);
}

/** A fresh webhook secret; returned once so the merchant can copy it to the receiver. */
export async function regenerateWebhookSecret(db: Db, storeId: number): Promise<string> {
  const secret = 'whsec_' + randomBytes(24).toString('base64url');
  await updateStore(db, storeId, { webhookSecret: secret });
  return secret;
}

const DATA_URL_RE = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * An icon is empty, a short emoji/text (≤ 16 characters, no markup), or a small raster image
 * as a base64 data URL whose bytes really start with the declared format's signature.
 * (SVG is refused: it can carry script.)
 */
export function validateIcon(field: string, icon: string, maxChars: number): string {
  const v = icon.trim();
  if (v === '') return '';
  if (v.startsWith('data:')) {
    if (v.length > maxChars) throw invalid(field, `image is too large (at most ${Math.floor((maxChars * 3) / 4 / 1024)} KiB)`);
    const m = DATA_URL_RE.exec(v);
    if (!m) throw invalid(field, 'must be a base64 PNG, JPEG, GIF or WebP data URL');
    const bytes = Buffer.from(m[2], 'base64');
    const sig: Record<string, (b: Buffer) => boolean> = {
      png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
      jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
      gif: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
      webp: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
    };
    if (!sig[m[1]](bytes)) throw invalid(field, `the data is not a ${m[1].toUpperCase()} image`);
    return v;
  }
  if ([...v].length > 16 || /[<>"'&\\]/.test(v) || /[\u0000-\u001f]/.test(v))
    throw invalid(field, 'must be an emoji or a short symbol (at most 16 characters), or an image');
  return v;
}
