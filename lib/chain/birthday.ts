// The wallet's birthday (docs/configuration.md WALLET_BIRTHDAY, docs/node.md#the-wallets-history-birthday-and-rescan): the block height
// or the date from which the watch-only wallet's history is scanned. Pure: parsing with strict
// validation, and the mapping of a date to the first block at or after it (minus a margin).

/** A block height, or a UTC date (midnight) / date-time. `text` is the canonical form stored. */
export type Birthday = { kind: 'height'; height: number; text: string } | { kind: 'date'; time: number; text: string };

/** Block timestamps may run up to 2 hours ahead of the real time: a date maps that much earlier. */
export const DATE_MARGIN_SEC = 2 * 3600;
/** Heights beyond this are nonsense for any chain this app follows. */
const MAX_HEIGHT = 100_000_000;
/** Bitcoin's genesis (2009-01-03): no Dogecoin-family block is older. */
const EARLIEST = Date.UTC(2009, 0, 3) / 1000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?Z)?$/;

/**
 * Parses `5000000` (a height) or `2024-01-31` / `2024-01-31T08:00Z` / `2024-01-31T08:00:00Z`
 * (UTC). Throws an Error whose message says what is accepted. A date in the future is refused
 * (it names no history); a height above the tip is allowed (nothing to scan yet).
 */
export function parseBirthday(input: string | number, now: Date = new Date()): Birthday {
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input) || input < 0 || input > MAX_HEIGHT)
      throw new Error(`a block height must be a whole number from 0 to ${MAX_HEIGHT}`);
    return { kind: 'height', height: input, text: String(input) };
  }
  const s = input.trim();
  if (/^\d{1,9}$/.test(s)) return parseBirthday(Number(s), now);
  const m = DATE.exec(s);
  if (!m)
    throw new Error(
      `"${input.slice(0, 40)}" is neither a block height (e.g. 5000000) nor a UTC date (e.g. 2024-01-31 or 2024-01-31T08:00Z)`,
    );
  const [y, mo, d, hh = '0', mi = '0', ss = '0'] = m.slice(1).map((v) => v ?? undefined) as string[];
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(hh), Number(mi), Number(ss));
  const back = new Date(ms);
  if (
    Number.isNaN(ms) ||
    back.getUTCFullYear() !== Number(y) ||
    back.getUTCMonth() !== Number(mo) - 1 ||
    back.getUTCDate() !== Number(d) ||
    Number(hh) > 23 ||
    Number(mi) > 59 ||
    Number(ss) > 59
  ) {
    throw new Error(`"${s}" is not a real date`);
  }
  const time = ms / 1000;
  if (time < EARLIEST) throw new Error(`"${s}" is before any Dogecoin block`);
  if (ms > now.getTime()) throw new Error(`"${s}" is in the future: a birthday names when the wallet was created`);
  return { kind: 'date', time, text: s };
}

export interface HeightRange {
  /** The lowest height the backend can scan (spv: its first stored header, the checkpoint). */
  low: number;
  /** The highest height to consider (the tip). */
  high: number;
  /** Block time (unix seconds) at a height within [low, high]. */
  timeAt(height: number): Promise<number>;
}

/**
 * The height a birthday names. A height is itself. A date maps to the first block whose time is
 * at or after the date minus DATE_MARGIN_SEC (block times are not strictly ordered: the search
 * assumes they are, and the margin covers the slack); `high + 1` when every block is older.
 * `beforeLow` says the date precedes the lowest block available (the scan can only start there).
 */
export async function birthdayHeight(b: Birthday, r: HeightRange): Promise<{ height: number; beforeLow: boolean }> {
  if (b.kind === 'height') return { height: b.height, beforeLow: b.height < r.low };
  const target = b.time - DATE_MARGIN_SEC;
  let lo = r.low;
  let hi = r.high + 1; // invariant: every height < lo is older than target; hi is at or after (or past the end)
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await r.timeAt(mid)) >= target) hi = mid;
    else lo = mid + 1;
  }
  return { height: lo, beforeLow: lo === r.low && r.low > 0 && (await r.timeAt(r.low)) > target };
}
