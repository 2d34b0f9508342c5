// The watch-only wallet's address set across restarts (lib/chain/watch-addresses.ts): the count
// derived per xpub and branch is kept in the database, so a restart derives only what is new,
// not every address ever handed out; a new xpub starts from nothing; a long derivation lets
// the event loop run between slices; the highest used indexes are cached, and re-read after a
// block that paid us and when the worker takes the lease (lib/worker.ts). On PGlite in a data
// directory, closed and reopened; the takeover case runs the production worker on the devnet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDb, type Db } from '@/lib/db';
import { seedDataDir } from '../helpers/stores';
import { deriveAddress, parseXpub, REGTEST } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { syncWatchAddresses, ensuredKey, forgetUsedIndexes, GAP_LIMIT, DERIVE_SLICE } from '@/lib/chain/watch-addresses';
import { createDevnetBackend } from '@/lib/chain/devnet/backend';
import { startWorker } from '@/lib/worker';
import { NO_RATES } from '../helpers/node-worker';
import { until } from '../helpers/wait';

const network = REGTEST;
const xpubOf = (fill: number) => testXpub(fill, network);
const XPUB = xpubOf(11);
const OTHER = xpubOf(12);

let dir: string;
let db: Db;
const open = async () => {
  await seedDataDir(dir);
  return openMigratedDb({ dataDir: dir });
};

async function setStore(xpub: string, next: number) {
  await db.query(
    `INSERT INTO store (id, store_xpub, next_address_index) VALUES (1, $1, $2)
                  ON CONFLICT (id) DO UPDATE SET store_xpub = EXCLUDED.store_xpub, next_address_index = EXCLUDED.next_address_index`,
    [xpub, next],
  );
}
const count = async (branch: number) =>
  Number((await db.query<{ n: unknown }>(`SELECT count(*)::int AS n FROM wallet_address WHERE branch = $1`, [branch]))[0].n);
const has = async (address: string) => (await db.query(`SELECT 1 FROM wallet_address WHERE address = $1`, [address])).length > 0;
const marker = async (xpub: string, branch: number) =>
  (await db.query<{ value: unknown }>(`SELECT value FROM app_state WHERE key = $1`, [ensuredKey(xpub, branch)]))[0]?.value ?? null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'counter-watch-'));
  db = await open();
}, 60_000);
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('watch addresses across restarts', () => {
  it('derives the gap past the next index on both branches and keeps the counts (not the xpub) in app_state', async () => {
    await setStore(XPUB, 450);
    await syncWatchAddresses(db, network);
    expect(await count(0)).toBe(450 + GAP_LIMIT);
    expect(await count(1)).toBe(GAP_LIMIT);
    expect(await marker(XPUB, 0)).toBe(String(450 + GAP_LIMIT));
    expect(await marker(XPUB, 1)).toBe(String(GAP_LIMIT));
    const keys = (await db.query<{ key: unknown }>(`SELECT key FROM app_state WHERE key LIKE 'watch_ensured:%'`)).map((r) => String(r.key));
    expect(keys.some((k) => k.includes(XPUB))).toBe(false);
  });

  it('after a restart, derives only what is new: an address the first run stored is not derived again', async () => {
    await db.close();
    db = await open(); // a new process's view: nothing ensured in memory
    const acct = parseXpub(XPUB, network);
    const early = deriveAddress(acct, 5, network, 0);
    await db.query(`DELETE FROM wallet_address WHERE address = $1`, [early]);
    await setStore(XPUB, 600);
    await syncWatchAddresses(db, network);
    // the kept count was trusted: index 5 was not derived again, 470..619 were
    expect(await has(early)).toBe(false);
    expect(await has(deriveAddress(acct, 470, network, 0))).toBe(true);
    expect(await has(deriveAddress(acct, 619, network, 0))).toBe(true);
    expect(await has(deriveAddress(acct, 620, network, 0))).toBe(false);
    expect(await marker(XPUB, 0)).toBe(String(600 + GAP_LIMIT));
  });

  it('another xpub has its own count: it is derived from index 0', async () => {
    await setStore(OTHER, 10);
    await syncWatchAddresses(db, network);
    const acct = parseXpub(OTHER, network);
    for (const i of [0, 5, 29]) expect(await has(deriveAddress(acct, i, network, 0))).toBe(true);
    expect(await marker(OTHER, 0)).toBe(String(10 + GAP_LIMIT));
    expect(await marker(XPUB, 0)).toBe(String(600 + GAP_LIMIT)); // the first wallet's count stays
  });

  it('a long derivation yields to the event loop between slices: no single stall holds most of it', async () => {
    const fresh = xpubOf(13);
    const n = 1000;
    // warm what is built once per process (the curve's tables, the plan of a slice's insert) with
    // another wallet first, so only this derivation and its writes are timed
    await setStore(xpubOf(14), 200);
    await syncWatchAddresses(db, network);
    await setStore(fresh, n);
    let last = performance.now();
    let longest = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const t0 = performance.now();
    try {
      await syncWatchAddresses(db, network);
    } finally {
      clearInterval(timer);
    }
    const total = performance.now() - t0;
    longest = Math.max(longest, performance.now() - last); // a run that never let the timer in is one stall
    expect(await marker(fresh, 0)).toBe(String(n + GAP_LIMIT));
    // in one piece, deriving ~1,000 addresses is one stall of most of the run; in slices of
    // DERIVE_SLICE, the longest stall is about one slice (a ratio, so a slow machine is no matter)
    expect(longest / total).toBeLessThan(0.5);
    expect(Math.ceil((n + GAP_LIMIT) / DERIVE_SLICE)).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it('a steady tick reads no wallet output; a block that paid us, or a worker taking over, moves the gap on', async () => {
    const xpub = xpubOf(15);
    await setStore(xpub, 0);
    // The statements the sync sends through db.query (the used indexes' read is one of them).
    const sent: string[] = [];
    const spy = new Proxy(db, {
      get: (target, k, receiver) =>
        k === 'query' ? (sql: string, params?: unknown[]) => (sent.push(sql), target.query(sql, params)) : Reflect.get(target, k, receiver),
    }) as Db;
    const readsOutputs = () => sent.some((q) => /wallet_output/.test(q));
    await syncWatchAddresses(spy, network);
    expect(readsOutputs()).toBe(true);
    sent.length = 0;
    await syncWatchAddresses(spy, network);
    expect(readsOutputs()).toBe(false);

    // Index 15 of branch 0 is paid (written as the tracker writes it, then as another worker would).
    const paid = deriveAddress(parseXpub(xpub, network), 15, network);
    await db.query(
      `INSERT INTO wallet_output (txid, vout, address, script, amount) SELECT $1, 0, address, script, 100000000 FROM wallet_address WHERE address = $2`,
      ['ab'.repeat(32), paid],
    );
    await syncWatchAddresses(spy, network, { usedChanged: true });
    expect(await marker(xpub, 0)).toBe(String(15 + 1 + GAP_LIMIT));

    await db.query(
      `INSERT INTO wallet_output (txid, vout, address, script, amount) SELECT $1, 0, address, script, 100000000 FROM wallet_address WHERE address = $2`,
      ['cd'.repeat(32), deriveAddress(parseXpub(xpub, network), 30, network)],
    );
    forgetUsedIndexes(spy); // a worker taking over: another one wrote that output
    await syncWatchAddresses(spy, network);
    expect(await marker(xpub, 0)).toBe(String(30 + 1 + GAP_LIMIT));
    expect(await has(deriveAddress(parseXpub(xpub, network), 30 + GAP_LIMIT, network))).toBe(true);
  });

  it('the worker, on taking the lease, re-reads the used indexes another worker may have moved', async () => {
    const xpub = xpubOf(16);
    await db.query('DELETE FROM wallet_output'); // the earlier cases' outputs (store 1's indexes) out of the way
    await setStore(xpub, 0);
    await syncWatchAddresses(db, network); // this process's view while it stood by: nothing used
    expect(await marker(xpub, 0)).toBe(String(GAP_LIMIT));
    await db.query(
      `INSERT INTO wallet_output (txid, vout, address, script, amount) SELECT $1, 0, address, script, 100000000 FROM wallet_address WHERE address = $2`,
      ['ef'.repeat(32), deriveAddress(parseXpub(xpub, network), 15, network)],
    );
    // The production worker on the in-process devnet chain (no blocks, so nothing of its own
    // re-reads the outputs): only the takeover's forgetting moves the gap.
    const chainDir = mkdtempSync(join(tmpdir(), 'counter-watch-chain-'));
    const chain = createDevnetBackend({ network, dir: chainDir, blockSeconds: 0 });
    const worker = startWorker({ db, network, chain, publicUrl: 'http://127.0.0.1:1', intervalMs: 50, rates: NO_RATES });
    try {
      expect(
        await until(
          () => marker(xpub, 0),
          (v) => v === String(15 + 1 + GAP_LIMIT),
          15_000,
        ),
      ).toBe(String(15 + 1 + GAP_LIMIT));
    } finally {
      await worker.stop();
      rmSync(chainDir, { recursive: true, force: true });
    }
  });
});
