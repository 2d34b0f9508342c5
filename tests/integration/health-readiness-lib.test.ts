// lib/health's readiness facts read from a real (embedded PGlite) database: the store row's
// wallet (none, valid, not for this network), the chain worker's published state and how long
// ago it reported, and checkHealth when the database cannot be opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { loadConfig } from '@/lib/config';
import { checkHealth, readReadiness } from '@/lib/health';
import { publishChainState } from '@/lib/chain/chain-state';
import { testXpub, DGUB } from '../helpers/keys';

const TPUB = testXpub(4);
const cfg = loadConfig({ DOGE_NETWORK: 'regtest', CHAIN_BACKEND: 'spv', DOGE_PEERS: '127.0.0.1:9' } as unknown as NodeJS.ProcessEnv);

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: {}, create: { id: 1 } });
});
afterAll(async () => db?.close());

const codes = async () => (await readReadiness(cfg, db, 1)).problems.map((p) => p.code);
const setWallet = (storeXpub: string, storeAddress = '') => db.prisma.store.update({ where: { id: 1 }, data: { storeXpub, storeAddress } });

describe('readReadiness on a real database', () => {
  it('before the worker reports: no wallet, no peers, not synced', async () => {
    expect(await codes()).toEqual(['no_wallet', 'no_peers', 'not_synced']);
  });

  it('judges the wallet in the store row against the network: a mainnet dgub on regtest is not a wallet it can use', async () => {
    await setWallet(DGUB);
    expect(await codes()).toContain('wallet_invalid');
    await setWallet('', 'not-an-address');
    expect(await codes()).toContain('wallet_invalid');
    await setWallet(TPUB);
    expect(await codes()).toEqual(['no_peers', 'not_synced']);
  });

  it('is ready once the worker publishes peers and synced; a worker silent for minutes makes it not ready again', async () => {
    await publishChainState(db, { tip_height: 120, peers: 3, synced: true });
    expect(await readReadiness(cfg, db, 1)).toEqual({ ready: true, problems: [], chain: { tip: 120, synced: true, peers: 3 } });
    await db.prisma.chainState.update({ where: { key: 'peers' }, data: { updatedAt: new Date(Date.now() - 10 * 60_000) } });
    expect(await codes()).toEqual(['worker_silent']);
    await publishChainState(db, { peers: 3 });
    expect(await codes()).toEqual([]);
  });

  it("judges each store's own wallet against the installation's chain; /api/health judges the first store's", async () => {
    await db.prisma.store.create({ data: { id: 2, name: 'Second store' } });
    try {
      expect((await readReadiness(cfg, db, 2)).problems.map((p) => p.code)).toEqual(['no_wallet']);
      expect(await codes()).toEqual([]);
      expect(await checkHealth(cfg, async () => db)).toMatchObject({ ok: true, ready: true });
      await db.prisma.store.update({ where: { id: 2 }, data: { storeXpub: testXpub(5) } });
      expect(await readReadiness(cfg, db, 2)).toMatchObject({ ready: true, problems: [] });
    } finally {
      await db.prisma.store.delete({ where: { id: 2 } });
    }
  });

  it('checkHealth keeps ok semantics: a database that cannot be opened is ok:false with db_unreachable', async () => {
    const h = await checkHealth(cfg, async () => {
      throw new Error('ECONNREFUSED');
    });
    expect(h).toMatchObject({ ok: false, ready: false, chain: { tip: 0, synced: false, peers: 0 } });
    expect(h.problems.map((p) => p.code)).toEqual(['db_unreachable']);
    const live = await checkHealth(cfg, async () => db);
    expect(live).toMatchObject({ ok: true, ready: true, problems: [], network: 'regtest', backend: 'spv' });
  });
});
