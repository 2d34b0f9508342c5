// The sales report's split by tender and by terminal (docs/counter.md#reports): the confirmed
// sales of the period, as the rest of the report counts them, grouped by how they were paid
// (`doge`, `cash`) and by the registered till they were rung up on. Each group has its DOGE
// gross (a cash sale counts at the DOGE total locked with its rate, like any fiat-priced sale)
// and its fiat gross per currency, summed exactly in minor units (lib/money).
import type { Db } from '../db';
import { inStore } from '../stores';
import { formatFiatMinor, formatKoinu, parseFiatMinor, parseKoinu } from '../money';

export const TENDERS = ['doge', 'cash'] as const;

export interface FiatGross {
  currency: string;
  count: number;
  gross: string;
}
export interface TenderRow {
  count: number;
  gross: string;
  fiat: FiatGross[];
}
export interface TerminalRow extends TenderRow {
  /** The terminal's id, or null for sales made on no registered till (API keys, unregistered browsers). */
  id: string | null;
  /** Its current name (the name at the time of its last sale when it was deleted); "" for none. */
  name: string;
  revoked: boolean;
}

interface Acc {
  count: number;
  gross: bigint;
  fiat: Map<string, { count: number; minor: bigint }>;
}
const zero = (): Acc => ({ count: 0, gross: 0n, fiat: new Map() });
const show = (a: Acc): TenderRow => ({
  count: a.count,
  gross: formatKoinu(a.gross),
  fiat: [...a.fiat.entries()]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([currency, f]) => ({ currency, count: f.count, gross: formatFiatMinor(f.minor, currency) })),
});

function add(a: Acc, count: number, gross: bigint, currency: string, fiatTotal: string | null, fiatCount: number) {
  a.count += count;
  a.gross += gross;
  if (!currency || fiatTotal === null) return;
  let minor: bigint;
  try {
    minor = parseFiatMinor(fiatTotal, currency);
  } catch {
    return; // a stored total the currency cannot hold is left out of the fiat sum, never guessed
  }
  const f = a.fiat.get(currency) ?? { count: 0, minor: 0n };
  f.count += fiatCount;
  f.minor += minor;
  a.fiat.set(currency, f);
}

/**
 * `by_tender` ({ doge, cash }, both always present) and `by_terminal` (highest gross first, the
 * sales on no terminal last), in one grouped query. `scope` is the report's WHERE clause over
 * the payment table, with its parameters.
 */
export async function tenderAndTerminal(
  db: Db,
  storeId: number,
  scope: { where: string; params: unknown[] },
): Promise<{ by_tender: Record<(typeof TENDERS)[number], TenderRow>; by_terminal: TerminalRow[] }> {
  const rows = await db.prisma.$queryRawUnsafe<
    {
      tender: string;
      terminal_id: string | null;
      terminal: string | null;
      currency: string;
      count: bigint;
      gross: bigint | null;
      fiat: string | null;
      fiat_count: bigint;
    }[]
  >(
    `SELECT "tender", "terminal_id", max("terminal") AS terminal, "fiat_currency" AS currency, count(*)::bigint AS count, sum("total")::bigint AS gross,
            sum(CASE WHEN "fiat_total" ~ '^[0-9]{1,30}(\\.[0-9]{1,18})?$' THEN "fiat_total"::numeric END)::text AS fiat,
            count(*) FILTER (WHERE "fiat_total" ~ '^[0-9]{1,30}(\\.[0-9]{1,18})?$')::bigint AS fiat_count
       FROM "payment" WHERE ${scope.where} AND "status" = 'confirmed' GROUP BY 1, 2, 4`,
    ...scope.params,
  );
  const tenders = Object.fromEntries(TENDERS.map((t) => [t, zero()])) as Record<string, Acc>;
  const terminals = new Map<string | null, Acc & { last: string }>();
  for (const r of rows) {
    const gross = r.gross === null ? 0n : BigInt(r.gross);
    const args = [Number(r.count), gross, r.currency, r.fiat, Number(r.fiat_count)] as const;
    add((tenders[r.tender] ??= zero()), ...args);
    const t = terminals.get(r.terminal_id) ?? { ...zero(), last: r.terminal ?? '' };
    add(t, ...args);
    terminals.set(r.terminal_id, t);
  }
  const ids = [...terminals.keys()].filter((k): k is string => k !== null);
  const known = ids.length
    ? await db.prisma.terminal.findMany({
        where: { id: { in: ids }, ...inStore(storeId) },
        select: { id: true, name: true, revokedAt: true },
      })
    : [];
  const byId = new Map(known.map((k) => [k.id, k]));
  const byTerminal = [...terminals.entries()]
    .sort(([ka, a], [kb, b]) =>
      ka === null ? 1 : kb === null ? -1 : b.gross > a.gross ? 1 : b.gross < a.gross ? -1 : ka.localeCompare(kb),
    )
    .map(([id, a]) => ({
      id,
      name: id ? (byId.get(id)?.name ?? a.last) : '',
      revoked: id ? !!byId.get(id)?.revokedAt : false,
      ...show(a),
    }));
  return {
    by_tender: Object.fromEntries(Object.entries(tenders).map(([k, a]) => [k, show(a)])) as Record<(typeof TENDERS)[number], TenderRow>,
    by_terminal: byTerminal,
  };
}

/**
 * The cash tender less the cash handed back by the period's cash refunds
 * (docs/counter.md#cash-refunds): its DOGE gross and its fiat gross per currency fall by them.
 */
export function lessCashRefunds(cash: TenderRow, refunds: { koinu: bigint; fiat: Map<string, bigint> }): TenderRow {
  const fiat = cash.fiat.map((f) => ({ ...f }));
  for (const [currency, minor] of refunds.fiat) {
    const row = fiat.find((f) => f.currency === currency);
    if (row) row.gross = formatFiatMinor(parseFiatMinor(row.gross, currency) - minor, currency);
    else fiat.push({ currency, count: 0, gross: formatFiatMinor(-minor, currency) });
  }
  return {
    count: cash.count,
    gross: formatKoinu(parseKoinu(cash.gross) - refunds.koinu),
    fiat: fiat.sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}
