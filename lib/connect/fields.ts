import * as z from 'zod';
import { AmountError, parseKoinu } from '../money';
import { decodeBase64Loose } from './base64';

/** Spec: a missing optional string and "" are equivalent (not provided). */
export function isProvided(s: string | undefined): s is string {
  return s !== undefined && s !== '';
}

const RFC3339_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** RFC 3339 `date-time` (section 5.6) with calendar checks; leap second 60 allowed. */
export function isRfc3339(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = RFC3339_RE.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const mdays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1]) return false;
  if (h > 23 || mi > 59 || se > 60) return false;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  return true;
}

const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** Non-empty and only base58 characters (no network/checksum check: lib/doge does that). */
export function isBase58Chars(s: unknown): s is string {
  return typeof s === 'string' && BASE58_RE.test(s);
}

/** Parse an 8-DP string leniently for cross-field checks: undefined when absent or invalid. */
export function tryKoinu(s: string | undefined): bigint | undefined {
  if (!isProvided(s)) return undefined;
  try {
    return parseKoinu(s, { allowNegative: true });
  } catch {
    return undefined;
  }
}

export type KoinuSign = 'positive' | 'nonnegative' | 'any';

function checkKoinu(s: string, sign: KoinuSign, ctx: z.core.$RefinementCtx<string>): void {
  let k: bigint;
  try {
    k = parseKoinu(s, { allowNegative: true });
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof AmountError ? e.message : 'invalid amount' });
    return;
  }
  if (sign === 'positive' && k <= 0n) ctx.addIssue({ code: 'custom', message: 'amount must be greater than 0' });
  if (sign === 'nonnegative' && k < 0n) ctx.addIssue({ code: 'custom', message: 'amount must not be negative' });
}

/** Required 8-DP amount string (validated with lib/money; > 8 decimals rejected). */
export function koinuString(sign: KoinuSign) {
  return z.string().superRefine((s, ctx) => checkKoinu(s, sign, ctx));
}

/** Optional 8-DP amount string: missing or "" means not provided. */
export function optionalKoinuString(sign: KoinuSign) {
  return z
    .string()
    .superRefine((s, ctx) => {
      if (s !== '') checkKoinu(s, sign, ctx);
    })
    .optional();
}

export const requiredString = z.string().min(1, 'required');
export const optionalString = z.string().optional();

export const rfc3339String = z.string().refine(isRfc3339, 'must be an RFC 3339 timestamp');

export const hexString = (bytes: number) =>
  z.string().refine((s) => /^[0-9a-fA-F]*$/.test(s) && s.length === bytes * 2, `must be ${bytes} bytes of hex`);

/** Non-negative plain decimal for fiat amounts ("5.00"); missing or "" means not provided. */
export const optionalFiatDecimal = z
  .string()
  .refine((s) => s === '' || /^\d{1,30}(?:\.\d{1,18})?$/.test(s), 'must be a non-negative decimal number')
  .optional();

/** ISO 4217 alphabetic code (three uppercase letters); missing or "" means not provided. */
export const optionalCurrency = z
  .string()
  .refine((s) => s === '' || /^[A-Z]{3}$/.test(s), 'must be a 3-letter ISO 4217 code in uppercase')
  .optional();

export const httpUrl = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.host !== '';
  } catch {
    return false;
  }
}, 'must be an http(s) URL');

/** Reverse-dotted namespaced key: at least two dot-separated segments, e.g. com.example.table. */
export const META_KEY_RE = /^[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9_-]+)+$/;

/** Standard Base64 (padding optional, non-empty). */
export const base64String = z
  .string()
  .refine((s) => s.length > 0 && decodeBase64Loose(s, ['standard']) !== undefined, 'must be standard Base64');
