// Header sync rate of the spv node against litecoind's own, on one regtest chain:
//   node scripts/measure-header-sync.mjs [blocks=20000] [pglite|postgres]
// Mines the chain on litecoind A (to an address outside any wallet), then times
//   - litecoind B (addnode A) until getblockchaininfo.headers reaches the tip (B is then
//     stopped: its block download would compete for the CPU);
//   - the spv node (lib/chain/spv/backend.ts, header store on PGlite in memory, or PostgreSQL)
//     until its best header is A's tip; with its peak RSS.
import { createJiti } from 'jiti';
import { join } from 'node:path';

const root = process.cwd();
const jiti = createJiti(import.meta.url, { alias: { '@': root } });
const N = Number(process.argv[2] ?? 20000);
const store = process.argv[3] ?? 'pglite';
const { startLitecoind, LITECOIN_REGTEST_GENESIS, EXTERNAL_ADDRESS } = await jiti.import(join(root, 'tests/helpers/litecoind.ts'));
const { openMigratedDb } = await jiti.import(join(root, 'lib/db/index.ts'));
const { getNetwork } = await jiti.import(join(root, 'lib/doge/index.ts'));
const { SpvBackend } = await jiti.import(join(root, 'lib/chain/spv/backend.ts'));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const a = await startLitecoind({ wallet: false, rpcTimeoutMs: 600_000 });
const b = await startLitecoind({ wallet: false, rpcTimeoutMs: 600_000 });
let pg;
try {
  let t = Date.now();
  for (let left = N; left > 0; left -= 500) await a.mine(Math.min(500, left), EXTERNAL_ADDRESS);
  const tip = await a.rpc('getbestblockhash');
  console.log(`mined ${N} blocks in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  t = Date.now();
  await b.connect(a);
  while ((await b.rpc('getblockchaininfo')).headers < N) await sleep(20);
  const coreSec = (Date.now() - t) / 1000;
  await b.stop(); // its block download would compete with the spv node for the CPU

  let db;
  if (store === 'postgres') {
    const { startPostgres, createDatabase } = await jiti.import(join(root, 'tests/helpers/postgres.ts'));
    pg = await startPostgres();
    db = await openMigratedDb({ databaseUrl: await createDatabase(pg, 'bench'), poolSize: 2 });
  } else db = await openMigratedDb({ memory: true });
  const net = getNetwork('regtest', { genesisHash: LITECOIN_REGTEST_GENESIS });
  const spv = new SpvBackend({ network: net, peers: [`127.0.0.1:${a.p2pPort}`], checkpoint: null, db: async () => db });
  let peak = process.memoryUsage().rss;
  t = Date.now();
  await spv.start();
  while ((await spv.tip()).hash !== tip) {
    peak = Math.max(peak, process.memoryUsage().rss);
    await sleep(20);
  }
  const spvSec = (Date.now() - t) / 1000;
  await spv.stop();
  await db.close();
  const rate = (s) => Math.round(N / s);
  console.log(
    JSON.stringify(
      {
        blocks: N,
        store,
        litecoind: { headersSec: coreSec, headersPerSec: rate(coreSec) },
        spv: { headersSec: spvSec, headersPerSec: rate(spvSec), peakRssMiB: Math.round(peak / 2 ** 20) },
        ratio: +(coreSec / spvSec).toFixed(2),
      },
      null,
      1,
    ),
  );
} finally {
  await a.dispose();
  await b.dispose();
  await pg?.stop();
}
