// The store's time zone (docs/using-counter.md#the-till-pos, docs/using-counter.md#reports-and-receipts): one IANA zone in which every time is shown, with the
// zone's abbreviation so no time is ambiguous ("24 Nov 2026, 14:05 EST"). All zone arithmetic is
// Intl.DateTimeFormat's; nothing here knows an offset or a DST rule. Pure: no Next.js, no database.
import { processEnv } from '../config';

/** True when `tz` is an IANA zone name this runtime knows ("UTC" and "Etc/…" included). */
export function isValidTimeZone(tz: string): boolean {
  if (typeof tz !== 'string' || tz === '' || tz.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The zone used when the store has none set: env TZ when it is a valid IANA name, else UTC. */
export function defaultTimeZone(env: Record<string, string | undefined> = processEnv()): string {
  const tz = env.TZ?.trim().replace(/^:/, '');
  return tz && isValidTimeZone(tz) ? tz : 'UTC';
}

/** The store's setting (may be empty) resolved to the zone in force. */
export function storeTimeZone(setting: string | null | undefined, env?: Record<string, string | undefined>): string {
  return setting && isValidTimeZone(setting) ? setting : defaultTimeZone(env);
}

export type TimeStyle = 'datetime' | 'time' | 'date';

const cache = new Map<string, Intl.DateTimeFormat>();
function fmt(tz: string, locale: string, style: TimeStyle): Intl.DateTimeFormat {
  const key = `${tz}|${locale}|${style}`;
  let f = cache.get(key);
  if (!f) {
    const opts: Intl.DateTimeFormatOptions = { timeZone: tz, hourCycle: 'h23' };
    if (style !== 'time') Object.assign(opts, { year: 'numeric', month: 'short', day: 'numeric' });
    if (style !== 'date') Object.assign(opts, { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    f = new Intl.DateTimeFormat(locale, opts);
    if (cache.size > 200) cache.clear();
    cache.set(key, f);
  }
  return f;
}

/**
 * A time as the store shows it, in its zone and with the zone's abbreviation:
 * "24 Nov 2026, 14:05 EST" (datetime), "14:05 EST" (time), "24 Nov 2026" (date).
 * An empty or unparseable input gives "".
 */
export function formatStoreTime(
  at: Date | string | null | undefined,
  tz: string,
  opts: { style?: TimeStyle; locale?: string } = {},
): string {
  if (at === null || at === undefined || at === '') return '';
  const d = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(d.getTime())) return '';
  const zone = isValidTimeZone(tz) ? tz : 'UTC';
  const style = opts.style ?? 'datetime';
  const parts = fmt(zone, opts.locale ?? 'en-GB', style).formatToParts(d);
  if (style === 'date') return parts.map((p) => p.value).join('');
  // The zone's name as US English abbreviates it ("EST", "CET" is "GMT+1"): the same in every locale.
  const name =
    fmt(zone, 'en-US', 'time')
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')?.value ?? zone;
  return parts.map((p) => (p.type === 'timeZoneName' ? name : p.value)).join('');
}

/** Wall-clock fields of an instant in a zone (Intl's answer). */
function wallClock(d: Date, tz: string): { y: number; m: number; d: number; h: number; min: number; s: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(d);
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { y: n('year'), m: n('month'), d: n('day'), h: n('hour') % 24, min: n('minute'), s: n('second') };
}

/** "YYYY-MM-DD" of an instant in a zone. */
export function localDate(at: Date, tz: string): string {
  const w = wallClock(at, tz);
  return `${String(w.y).padStart(4, '0')}-${String(w.m).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
}

/** "YYYY-MM-DD HH:MM:SS" of an instant in a zone (for CSV columns). */
export function localDateTime(at: Date, tz: string): string {
  const w = wallClock(at, tz);
  const p = (v: number) => String(v).padStart(2, '0');
  return `${localDate(at, tz)} ${p(w.h)}:${p(w.min)}:${p(w.s)}`;
}

/**
 * The instant at which the local day containing `at` began in `tz` (today's midnight in the
 * store's zone). The zone's offset at that moment is read back from Intl: the wall clock of a
 * guess, compared with the wanted wall clock, corrects the guess (twice, for DST edges).
 */
export function startOfLocalDay(at: Date, tz: string): Date {
  const w = wallClock(at, tz);
  const want = Date.UTC(w.y, w.m - 1, w.d, 0, 0, 0);
  let guess = want;
  for (let i = 0; i < 3; i++) {
    const g = wallClock(new Date(guess), tz);
    const seen = Date.UTC(g.y, g.m - 1, g.d, g.h, g.min, g.s);
    if (seen === want) break;
    guess += want - seen;
  }
  // A zone whose day starts at 01:00 (midnight skipped by DST) lands after `want`: fine.
  return new Date(Math.min(guess, at.getTime()));
}
