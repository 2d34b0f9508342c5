// `status-rpc`: what the rpc backend's mempool watch (docs/api.md#payments-from-any-wallet: `getrawmempool` diffed every
// 2 s, each new tx matched against every open payment's address) costs the hottest wallet route.
// POST /relay/status at 64 clients on an app holding 10,000 payments (100 of them open), its
// chain worker following a litecoind -regtest whose mempool takes a new tx every 100 ms and a
// block every 5 s, against the same app and data with the worker off. The two are measured in
// the same run, alternating twice (on, off, on, off), and the ratio is of the sums.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { ROOT, startApp, createPayment } from './lib/app.mjs';
import { seedPayments, seededIds } from './lib/seed.mjs';
import { ratio } from './lib/common.mjs';
import { load } from './lib/load.mjs';
import { regtestXpub, startLitecoindForBench } from './lib/pay-prep.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });

/** Sends a small tx every `everyMs` and mines a block every `blockMs`, until stopped. */
function churn(node, address, { everyMs = 100, blockMs = 5000 } = {}) {
  let stopped = false;
  let sent = 0;
  let blocks = 0;
  const tx = (async () => {
    while (!stopped) {
      await node.rpc('sendtoaddress', address, 0.01).then(
        () => sent++,
        () => undefined,
      );
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  const mine = setInterval(() => {
    node.mine(1).then(
      () => blocks++,
      () => undefined,
    );
  }, blockMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(mine);
      await tx;
      return { sent, blocks };
    },
  };
}

const benchmark = {
  name: 'status-rpc',
  description: "POST /relay/status, 64 clients, rpc backend watching litecoind's mempool vs worker off (PGlite)",
  async run({ seconds, smoke }) {
    const n = smoke ? 500 : 10_000;
    const { node, genesis } = await startLitecoindForBench();
    const { EXTERNAL_ADDRESS } = await jiti.import(join(ROOT, 'tests/helpers/litecoind.ts'));
    const dataDir = mkdtempSync(join(tmpdir(), 'counter-bench-status-rpc-'));
    const key = 'bench-' + randomBytes(16).toString('hex');
    const env = {
      DOGE_NETWORK: 'regtest',
      CHAIN_GENESIS_HASH: genesis,
      CHAIN_BACKEND: 'rpc',
      DOGE_RPC_URL: node.rpcUrl,
      STORE_XPUB: await regtestXpub(),
      BOOTSTRAP_API_KEY: key,
    };
    try {
      const first = await startApp({ ...env, WORKER: 'off' }, { dataDir });
      const template = await createPayment(first, key);
      await first.stop({ keepData: true });
      // A shop's history: 1 % open (unpaid), 1 % accepted awaiting a block, 2 % declined, the
      // rest confirmed long ago (deep in the chain, their count at the tracked maximum).
      await seedPayments(dataDir, template.id, n, {
        columns: {
          status: `CASE WHEN g % 100 = 0 THEN 'unpaid' WHEN g % 100 = 1 THEN 'accepted' WHEN g % 100 IN (2, 3) THEN 'declined' ELSE 'confirmed' END`,
          txid: `CASE WHEN g % 100 = 0 OR g % 100 IN (2, 3) THEN NULL ELSE md5(t.id || g) || md5(g::text || t.id) END`,
          broadcast_state: `CASE WHEN g % 100 = 0 OR g % 100 IN (2, 3) THEN 'none' ELSE 'sent' END`,
          block_height: `CASE WHEN g % 100 >= 4 THEN 1 ELSE NULL END`,
          confirmations: `CASE WHEN g % 100 >= 4 THEN 100 ELSE 0 END`,
          reason: `CASE WHEN g % 100 IN (2, 3) THEN 'cancelled by vendor' ELSE '' END`,
        },
      });
      const bodies = seededIds(template.id, n, 2000).map((id) => JSON.stringify({ id }));
      const warmupSeconds = smoke ? 0 : 3;
      const runs = { on: [], off: [] };
      let traffic = { sent: 0, blocks: 0 };
      for (const mode of smoke ? ['on', 'off'] : ['on', 'off', 'on', 'off']) {
        const app = await startApp({ ...env, WORKER: mode === 'on' ? 'embedded' : 'off' }, { dataDir });
        const c = churn(node, EXTERNAL_ADDRESS);
        try {
          const r = await load({ url: `${app.url}/relay/status`, method: 'POST', bodies, seconds, warmupSeconds });
          if (r.status['2xx'] !== r.total) throw new Error(`status answered non-2xx: ${JSON.stringify(r.status)}`);
          runs[mode].push(r);
        } finally {
          const t = await c.stop();
          traffic = { sent: traffic.sent + t.sent, blocks: traffic.blocks + t.blocks };
          await app.stop({ keepData: true });
        }
      }
      const rps = (xs) => xs.reduce((a, r) => a + r.rps, 0);
      return {
        metrics: {
          payments: n,
          open_payments: Math.ceil(n / 100),
          connections: 64,
          mempool_traffic: traffic,
          worker_on: runs.on,
          worker_off: runs.off,
        },
        ratios: [{ name: 'status with rpc mempool watch / worker off', value: ratio(rps(runs.on), rps(runs.off)), target: 0.9 }],
      };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await node.dispose?.();
    }
  },
};

export default benchmark;
