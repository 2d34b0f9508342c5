// The period of a report (docs/using-counter.md#reports-and-receipts): `from` (inclusive) and `to` (exclusive) as RFC 3339
// instants or YYYY-MM-DD dates in an IANA time zone, and the local days it covers. Every
// wall-clock conversion goes through Intl (a day may have 23 or 25 hours); nothing here knows
// a zone's rules. Bad input throws InvalidRequestError (400), never anything else.
import { InvalidRequestError } from '../errors';

/** The longest period one report covers. */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;
const ZONE_RE = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

export interface LocalDate {
  y: number;
  m: number;
  d: number;
}

export interface ReportRange {
  from: Date;
  to: Date;
  tz: string;
  /** Each local day the period touches, with the part of the period inside it. */
  days: { date: string; from: Date; to: Date }[];
}

const fmtCache = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = fmtCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (fmtCache.size > 200) fmtCache.clear();
    fmtCache.set(tz, f);
  }
  return f;
}

/** The IANA zone, canonical (Intl's spelling), or 400 naming `field`. */
export function checkZone(tz: string, field = 'tz'): string {
  if (!ZONE_RE.test(tz)) throw new InvalidRequestError(field, 'must be an IANA time zone such as Europe/Berlin');
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw new InvalidRequestError(field, `is not a known time zone: ${tz}`);
  }
}

/** Wall-clock fields of an instant in a zone. */
export function wallClock(t: Date | number, tz: string): LocalDate & { h: number; mi: number; s: number } {
  const parts = formatter(tz).formatToParts(typeof t === 'number' ? t : t.getTime());
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  return { y: get('year'), m: get('month'), d: get('day'), h: get('hour'), mi: get('minute'), s: get('second') };
}

/** Milliseconds the zone is ahead of UTC at instant t. */
function offsetAt(t: number, tz: string): number {
  const w = wallClock(t, tz);
  const asUtc = Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s);
  return asUtc - (t - (((t % 1000) + 1000) % 1000));
}

export function ymd(d: LocalDate): string {
  return `${String(d.y).padStart(4, '0')}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;
}

/** The local date of an instant in a zone. */
export function localDate(t: Date | number, tz: string): LocalDate {
  const { y, m, d } = wallClock(t, tz);
  return { y, m, d };
}

function sameDate(a: LocalDate, b: LocalDate): boolean {
  return a.y === b.y && a.m === b.m && a.d === b.d;
}

/** The date after d (pure calendar arithmetic, no zone). */
export function nextDate(d: LocalDate): LocalDate {
  const t = new Date(Date.UTC(d.y, d.m - 1, d.d + 1));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/**
 * The first instant of local date d in tz: usually local midnight; on a day whose midnight a
 * clock change skips, the moment the day begins. Candidates are local midnight read with the
 * offsets in force around it; the earliest one whose local date is d wins.
 */
export function startOfLocalDay(d: LocalDate, tz: string): Date {
  const guess = Date.UTC(d.y, d.m - 1, d.d);
  let best: number | null = null;
  for (const probe of [guess - DAY_MS, guess, guess + DAY_MS]) {
    const off = offsetAt(probe, tz);
    for (const t of [guess - off, guess - offsetAt(guess - off, tz)]) {
      if (sameDate(localDate(t, tz), d) && (best === null || t < best)) best = t;
    }
  }
  if (best === null) {
    // A zone whose clocks skipped this whole date (e.g. Pacific/Apia on 2011-12-30): the day is
    // empty; it starts where the next day does.
    return startOfLocalDay(nextDate(d), tz);
  }
  if (!sameDate(localDate(best - 1, tz), d)) return new Date(best);
  // Snap back over a skipped stretch: the last instant of the previous date plus one ms.
  let lo = best - 3 * 3_600_000;
  if (sameDate(localDate(lo, tz), d)) return new Date(best);
  let hi = best;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (sameDate(localDate(mid, tz), d)) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

function checkDate(y: number, m: number, d: number, field: string): LocalDate {
  if (y < 1) throw new InvalidRequestError(field, 'year must be 0001 or later');
  const t = new Date(Date.UTC(2000, m - 1, d));
  t.setUTCFullYear(y);
  if (m < 1 || m > 12 || d < 1 || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d)
    throw new InvalidRequestError(field, 'is not a real date');
  return { y, m, d };
}

/** Parses a bound: YYYY-MM-DD (the start of that day in tz) or an RFC 3339 instant. */
export function parseBound(s: string, tz: string, field: string): Date {
  if (s.length > 40) throw new InvalidRequestError(field, 'must be a date (YYYY-MM-DD) or an RFC 3339 time');
  let m = DATE_RE.exec(s);
  if (m) return startOfLocalDay(checkDate(Number(m[1]), Number(m[2]), Number(m[3]), field), tz);
  m = INSTANT_RE.exec(s);
  if (!m) throw new InvalidRequestError(field, 'must be a date (YYYY-MM-DD) or an RFC 3339 time');
  const date = checkDate(Number(m[1]), Number(m[2]), Number(m[3]), field);
  const [h, mi, sec] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (h > 23 || mi > 59) throw new InvalidRequestError(field, 'is not a real time');
  if (sec > 59) throw new InvalidRequestError(field, 'leap seconds are not supported; use :59');
  let offMin = 0;
  if (m[9]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) throw new InvalidRequestError(field, 'has an impossible UTC offset');
    offMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const base = new Date(Date.UTC(2000, date.m - 1, date.d, h, mi, sec, ms));
  base.setUTCFullYear(date.y);
  const t = base.getTime() - offMin * 60_000;
  if (!Number.isFinite(t)) throw new InvalidRequestError(field, 'is out of range');
  return new Date(t);
}

/**
 * The period for query parameters: both bounds or neither (then today in tz, up to the start
 * of tomorrow). 400 when to ≤ from or the period exceeds MAX_RANGE_DAYS local days.
 */
export function resolveRange(p: { from?: string | null; to?: string | null; tz: string }, now = new Date()): ReportRange {
  const tz = checkZone(p.tz);
  const has = (v: string | null | undefined) => v !== undefined && v !== null && v !== '';
  let from: Date;
  let to: Date;
  if (!has(p.from) && !has(p.to)) {
    const today = localDate(now, tz);
    from = startOfLocalDay(today, tz);
    to = startOfLocalDay(nextDate(today), tz);
  } else if (has(p.from) && has(p.to)) {
    from = parseBound(p.from!, tz, 'from');
    to = parseBound(p.to!, tz, 'to');
  } else {
    throw new InvalidRequestError(has(p.from) ? 'to' : 'from', 'give both from and to, or neither for today');
  }
  if (to.getTime() <= from.getTime()) throw new InvalidRequestError('to', 'must be after from');
  // 366 days plus an hour of slack for a clock change.
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS + 3_600_000)
    throw new InvalidRequestError('to', `the period may be at most ${MAX_RANGE_DAYS} days`);
  return { from, to, tz, days: splitDays(from, to, tz) };
}

/** The local days [from, to) touches, each clipped to the period. */
export function splitDays(from: Date, to: Date, tz: string): ReportRange['days'] {
  const out: ReportRange['days'] = [];
  let d = localDate(from, tz);
  let start = from;
  for (let i = 0; i <= MAX_RANGE_DAYS + 2 && start.getTime() < to.getTime(); i++) {
    const nd = nextDate(d);
    const next = startOfLocalDay(nd, tz);
    const end = next.getTime() < to.getTime() ? next : to;
    if (end.getTime() > start.getTime()) out.push({ date: ymd(d), from: start, to: end });
    d = nd;
    start = end;
  }
  return out;
}

/** An instant as RFC 3339 in the zone's local time with its offset: 2026-03-29T03:05:00+02:00. */
export function localIso(t: Date, tz: string): string {
  const w = wallClock(t, tz);
  const off = Math.round(offsetAt(t.getTime(), tz) / 60_000);
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${ymd(w)}T${p2(w.h)}:${p2(w.mi)}:${p2(w.s)}${sign}${p2(Math.floor(a / 60))}:${p2(a % 60)}`;
}
