// The worker's round count (lib/worker.ts, RunningWorker.rounds): what a test waits for before it
// asserts that nothing happened (tests/helpers/node-worker.ts, roundsPass). A round counts once
// it has ended, its tick's work written, never when it starts. The production worker on the
// devnet backend and a PGlite store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { createDevnetBackend } from '@/lib/chain/devnet/backend';
import { startWorker } from '@/lib/worker';
import { openTestDb } from '../helpers/stores';
import { NO_RATES } from '../helpers/node-worker';
import { until } from '../helpers/wait';

let db: Db;
let chainDir: string;

beforeAll(async () => {
  db = await openTestDb();
  chainDir = mkdtempSync(join(tmpdir(), 'counter-rounds-chain-'));
}, 60_000);
afterAll(async () => {
  await db?.close();
  rmSync(chainDir, { recursive: true, force: true });
});

const tipHash = async () => (await db.prisma.chainState.findUnique({ where: { key: 'tip_hash' } }))?.value ?? null;

describe('the worker counts its rounds', () => {
  it('counts a round once it has ended and its tick has written the tip, then one per interval', async () => {
    const chain = createDevnetBackend({ network: REGTEST, dir: chainDir, blockSeconds: 0 });
    // Each tick first waits 400 ms: a round cannot end before that.
    const worker = startWorker({
      db,
      network: REGTEST,
      chain,
      publicUrl: 'http://127.0.0.1:1',
      intervalMs: 50,
      tickDelayMs: 400,
      rates: NO_RATES,
    });
    try {
      expect(worker.rounds()).toBe(0);
      await new Promise((r) => setTimeout(r, 200));
      expect(worker.rounds()).toBe(0); // the first round is under way
      expect(await tipHash()).toBeNull();
      expect(
        await until(
          () => worker.rounds(),
          (n) => n >= 1,
          15_000,
        ),
      ).toBeGreaterThanOrEqual(1);
      expect(await tipHash()).toBe((await chain.tip()).hash); // the round's tick is done
      const before = worker.rounds();
      expect(
        await until(
          () => worker.rounds(),
          (n) => n >= before + 2,
          15_000,
        ),
      ).toBeGreaterThanOrEqual(before + 2);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
