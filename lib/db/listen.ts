// LISTEN on a notification channel of the configured database (docs/live.md).
//
// PGlite runs in this process: `pg.listen` hands each notification of a committed transaction
// to the callback, whichever statement path (Prisma, the prepared statements of
// lib/db/pglite-prepared.ts) ran it, since PGlite reads notifications out of every protocol
// exchange. There is nothing to reconnect.
//
// PostgreSQL: one dedicated connection per process and channel, outside the pool (a pooled
// connection is handed to other queries and would not stay LISTENing). It reconnects with a
// growing delay when the server or the network drops it. Notifications sent while it was
// down are lost, so `connected` is called after each (re)connection, once LISTEN is in
// place: the subscriber re-reads what it watches then, and nothing committed before that
// moment is missed.
import type { PGlite } from '@electric-sql/pglite';

export interface ListenHandlers {
  /** One notification's payload. */
  notify(payload: string): void;
  /** LISTEN is in place (first time, or again after a reconnect): re-read what may have been missed. */
  connected(): void;
  /** The connection dropped; notifications are lost until `connected` is called again. */
  disconnected?(error: Error): void;
}

/** Stops listening (idempotent). */
export type Unlisten = () => Promise<void>;

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel ${JSON.stringify(channel)}`);
}

export async function listenPglite(pg: PGlite, channel: string, h: ListenHandlers): Promise<Unlisten> {
  checkChannel(channel);
  const off = await pg.listen(channel, (payload) => h.notify(payload));
  h.connected();
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    await off().catch(() => undefined); // the database may be closing
  };
}

export interface PgListenOptions {
  /** First reconnect delay (doubles up to maxDelayMs). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export async function listenPostgres(url: string, channel: string, h: ListenHandlers, opts: PgListenOptions = {}): Promise<Unlisten> {
  checkChannel(channel);
  const pgmod = await import('pg');
  const Client = pgmod.default?.Client ?? (pgmod as unknown as typeof import('pg')).Client;
  const minDelay = opts.minDelayMs ?? 250;
  const maxDelay = opts.maxDelayMs ?? 5_000;
  let stopped = false;
  let client: InstanceType<typeof Client> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;

  const retry = (err: Error) => {
    if (stopped || timer) return;
    h.disconnected?.(err);
    const delay = Math.min(maxDelay, minDelay * 2 ** Math.min(failures++, 10));
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
  };

  async function connect(): Promise<void> {
    if (stopped) return;
    const c = new Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    client = c;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      c.removeAllListeners('notification');
      c.end().catch(() => undefined);
      if (client === c) client = null;
      retry(err);
    };
    c.on('error', fail);
    c.on('end', () => fail(new Error('LISTEN connection ended')));
    c.on('notification', (m) => {
      if (m.channel === channel && typeof m.payload === 'string') h.notify(m.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      fail(err as Error);
      return;
    }
    if (stopped || failed) return;
    failures = 0;
    h.connected();
  }

  await connect();
  return async () => {
    if (stopped) return;
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      await c.end().catch(() => undefined);
    }
  };
}
