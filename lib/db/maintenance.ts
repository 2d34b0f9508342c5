// Vacuuming for embedded PGlite, which has no autovacuum daemon. Without it the visibility map
// of a table is never set, so an index-only scan still visits the heap for every index entry:
// counting a buyer's 1,000 invoices read 1,000 heap pages, and skipping to page 200 of the
// store's 1,000,000 invoices read 5,000 (GET /invoices/{address}, lib/invoices/list-invoices.ts).
// Dead row versions left by status updates are never reclaimed either. A real PostgreSQL server
// vacuums itself: nothing runs there.
//
// VACUUM holds PGlite (and so the event loop) for its duration: the first run over a database
// that was never vacuumed visits every page (about 15 s at 1,000,000 payments on a loaded
// 2-CPU host), so it runs at start-up, before traffic. Later runs only visit the pages changed
// since the last, and skip the index passes while those are few, so they run every minute to
// stay short: 9 ms with nothing changed, 160 ms after 20,000 recent payments were updated
// (measured at 1,000,000; the same 20,000 updates spread over the whole table took 3.4 s, but
// payments change while they are new).
import type { Db } from './open';
import { log } from '../log';

/** The tables whose index-only scans serve hot reads; the rest are small. */
const TABLES = ['payment'] as const;
export const VACUUM_INTERVAL_MS = 60_000;

export async function vacuumPglite(db: Db): Promise<number> {
  if (db.kind !== 'pglite') return 0;
  const started = Date.now();
  for (const t of TABLES) await db.exec(`VACUUM "${t}"`);
  const ms = Date.now() - started;
  if (ms > 1000) log.info('vacuumed', { tables: TABLES.join(','), ms });
  return ms;
}

/** Vacuums now, then every `intervalMs`; the returned function stops the timer. */
export async function startPgliteMaintenance(db: Db, intervalMs = VACUUM_INTERVAL_MS): Promise<() => void> {
  if (db.kind !== 'pglite') return () => undefined;
  await vacuumPglite(db);
  const timer = setInterval(() => {
    vacuumPglite(db).catch((err) => log.warn('vacuum failed', { error: String(err) }));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
