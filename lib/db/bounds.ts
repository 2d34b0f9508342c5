// What the database can store, checked at the boundary so bad input is a 400, not a 500:
// PostgreSQL's BIGINT is a signed 64-bit integer, timestamps run from 4713 BC to 294276 AD
// (we accept years 1–9999, what ISO 8601 writes without an expanded year), and text never
// holds a NUL character.

export const INT64_MAX = 9_223_372_036_854_775_807n;

/** A non-negative decimal integer that fits a BIGINT, or null. */
export function parseInt64(s: string): bigint | null {
  if (!/^\d{1,19}$/.test(s)) return null;
  const v = BigInt(s);
  return v <= INT64_MAX ? v : null;
}

/** A Date the database can store (years 1–9999, no leap second), or null. */
export function storableDate(d: Date): Date | null {
  const t = d.getTime();
  if (!Number.isFinite(t)) return null;
  const y = d.getUTCFullYear();
  return y >= 1 && y <= 9999 ? d : null;
}

export const hasNul = (s: string): boolean => s.includes('\u0000');

/** True for errors where the database refused a value (SQLSTATE class 22, "data exception"). */
export function isDataException(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const x = e as { code?: unknown; originalCode?: unknown; meta?: { driverAdapterError?: unknown }; cause?: unknown };
  for (const c of [x.originalCode, x.code]) if (typeof c === 'string' && /^22[0-9A-Z]{3}$/.test(c)) return true;
  return isDataException(x.meta?.driverAdapterError, depth + 1) || isDataException(x.cause, depth + 1);
}

/**
 * True for errors where the database was busy, not broken: Prisma could not start a
 * transaction within its wait (P2028: on PGlite, one long transaction holds the only
 * connection; on PostgreSQL, every pooled connection is in use) or get a connection from its
 * pool (P2024). The request did nothing; the same request a moment later may succeed.
 */
export function isDbBusy(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const x = e as { code?: unknown; cause?: unknown };
  return x.code === 'P2028' || x.code === 'P2024' || isDbBusy(x.cause, depth + 1);
}
