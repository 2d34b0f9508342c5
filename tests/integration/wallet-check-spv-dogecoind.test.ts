// The wallet check on the `spv` backend against Dogecoin Core 1.14.9 (`dogecoind -regtest`) over
// P2P, with the running chain worker on PGlite (docs/wallet-check.md#what-the-relay-records): a
// wallet that pays a `refuse` case on-chain without calling /relay/pay is seen, because the bloom
// filter holds the pending cases' addresses, and the case fails. The tx reaches the check alone:
// no payment, event or wallet row of the store holds it. Skipped, saying why, when dogecoind is
// absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REGTEST } from '@/lib/doge';
import { koinuToRpc } from '@/lib/chain/rpc/client';
import { readConnectQr } from '@/lib/wallet';
import { createRun, runReport, type RelayPortContext, type CaseReport } from '@/lib/wallet-check';
import { haveDogecoind, startDogecoind, warnIfNoDogecoind, COINBASE_MATURITY, type Dogecoind } from '../helpers/dogecoind';
import { nodeArgsFor, startNodeWorker, type NodeWorker } from '../helpers/node-worker';
import { testXpub } from '../helpers/keys';
import { until } from '../helpers/wait';

warnIfNoDogecoind('tests/integration/wallet-check-spv-dogecoind.test.ts');

const URL_BASE = 'http://127.0.0.1:1';
let node: Dogecoind;
let nw: NodeWorker;
let dir: string;
let check: RelayPortContext;

describe.skipIf(!haveDogecoind)('the wallet check on spv against dogecoind', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'counter-wallet-check-spv-'));
    node = await startDogecoind({ args: nodeArgsFor('spv') });
    await node.mine(COINBASE_MATURITY + 20, await node.rpc<string>('getnewaddress'));
    nw = await startNodeWorker(node, { backend: 'spv', xpub: testXpub(16), publicUrl: URL_BASE });
    check = { db: nw.db, network: REGTEST, chain: nw.chain, dataDir: dir, publicUrl: URL_BASE };
  }, 240_000);
  afterAll(async () => {
    await nw?.stop();
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a refuse case a wallet pays on its own node fails, and the tx reaches no store table', async () => {
    const made = await createRun(check, '198.51.100.60');
    if (!made.ok) throw new Error('throttled');
    const cases = (await runReport(check, made.runId))!.cases;
    // A wallet that reads only the QR code (no envelope, no signature check) and broadcasts the
    // payment itself, as the Android wallet falls back to doing.
    const target = cases.find((c) => c.expect === 'refuse' && c.name === 'altered_signature')!;
    const qr = readConnectQr(target.uri);
    expect(qr.address).toBeTruthy();
    const txid = await node.rpc<string>('sendtoaddress', qr.address, koinuToRpc(qr.amountKoinu ?? 100_000_000n));
    await node.mine(1);
    const decided = await until(
      async () => (await runReport(check, made.runId))!.cases.find((c) => c.name === target.name)!,
      (c: CaseReport) => c.result !== 'pending',
      60_000,
      200,
    );
    expect(decided).toMatchObject({ result: 'fail' });
    expect(decided.detail).toContain(`paid on-chain`);
    expect(decided.detail).toContain(txid);
    // The other cases are untouched: the wallet paid only this one.
    const others = (await runReport(check, made.runId))!.cases.filter((c) => c.name !== target.name);
    expect(others.every((c) => c.result === 'pending')).toBe(true);
    // Nothing of it in the store: no payment, no event, no wallet tx or output.
    const count = async (sql: string, params: unknown[] = []) => Number((await nw.db.query<{ n: string }>(sql, params))[0]!.n);
    expect(await count(`SELECT count(*) AS n FROM payment`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM payment_tx`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM vendor_event`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM wallet_tx WHERE txid = $1`, [txid])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM wallet_output WHERE txid = $1`, [txid])).toBe(0);
  }, 180_000);
});
