// The wallet check (docs/wallet-check.md) against Dogecoin Core 1.14.9 (`dogecoind -regtest`) with
// the `rpc` backend and the running chain worker on PGlite: lib/wallet passes every case; a wallet
// that broadcasts on its own node instead of calling /relay/pay fails every pay case, seen by the
// worker in the node's mempool; a wallet that drops the data output fails exactly the data cases.
// Skipped, saying why, when dogecoind is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { REGTEST, pubkeyToAddress, addressToScript, toHex } from '@/lib/doge';
import { encodeWif } from '@/lib/doge/wif';
import { koinuFromRpc } from '@/lib/chain/rpc/client';
import { CASE_NAMES, createRun, runReport, type RelayPortContext, type RunReport } from '@/lib/wallet-check';
import type { WalletUtxo } from '@/lib/wallet';
import { haveDogecoind, startDogecoind, warnIfNoDogecoind, COINBASE_MATURITY, type Dogecoind } from '../helpers/dogecoind';
import { startNodeWorker, type NodeWorker } from '../helpers/node-worker';
import { testXpub } from '../helpers/keys';
import { until } from '../helpers/wait';
import { FAILS, flawedWallet, relayRoutesFetch, sdkWallet, type WalletEnv } from '../helpers/check-wallets';
import type { NodeVoutJson } from '../helpers/json-shapes';

warnIfNoDogecoind('tests/integration/wallet-check-dogecoind.test.ts');

const URL_BASE = 'http://127.0.0.1:1';
let node: Dogecoind;
let nw: NodeWorker;
let dir: string;
let check: RelayPortContext;
const priv = secp256k1.utils.randomSecretKey();
const wif = encodeWif(priv, true, REGTEST);
const address = pubkeyToAddress(secp256k1.getPublicKey(priv, true), REGTEST);
const coins: WalletUtxo[] = [];

function env(ua: string): WalletEnv {
  return {
    fetch: relayRoutesFetch(nw.db, nw.chain, check, ua),
    coins: { network: 'regtest', wif, next: () => coins[0]!, spend: (u) => void coins.splice(coins.indexOf(u), 1) },
    broadcast: async (hex) => void (await node.rpc<string>('sendrawtransaction', hex)),
  };
}

async function run(
  pay: (uri: string, e: WalletEnv) => Promise<unknown>,
  ua: string,
  settled: (r: RunReport) => boolean,
): Promise<RunReport> {
  const made = await createRun(check, '198.51.100.' + coins.length);
  if (!made.ok) throw new Error('throttled');
  const e = env(ua);
  for (const c of (await runReport(check, made.runId))!.cases) await pay(c.uri, e);
  // The worker sees what the wallet broadcast itself from the node's mempool, on its own ticks.
  await until(async () => (await runReport(check, made.runId))!, settled, 30_000);
  return (await runReport(check, made.runId, { finish: true }))!;
}

const failed = (r: RunReport) => r.cases.filter((c) => c.result === 'fail').map((c) => c.name);

describe.skipIf(!haveDogecoind)('the wallet check against dogecoind (rpc)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'counter-wallet-check-doge-'));
    node = await startDogecoind();
    await node.mine(COINBASE_MATURITY + 20, await node.rpc<string>('getnewaddress'));
    const script = toHex(addressToScript(address, REGTEST));
    for (let i = 0; i < 24; i++) {
      const txid = await node.rpc<string>('sendtoaddress', address, 20);
      const tx = await node.rpc<{ vout: NodeVoutJson[] }>('getrawtransaction', txid, 1);
      const out = tx.vout.find((o) => o.scriptPubKey.hex === script)!;
      coins.push({ txid, vout: out.n, amount: koinuFromRpc(out.value), script });
    }
    await node.mine(1);
    nw = await startNodeWorker(node, { backend: 'rpc', xpub: testXpub(15), publicUrl: URL_BASE });
    await nw.caughtUp(120_000);
    check = { db: nw.db, network: REGTEST, chain: nw.chain, dataDir: dir, publicUrl: URL_BASE };
  }, 240_000);
  afterAll(async () => {
    await nw?.stop();
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lib/wallet passes every case', async () => {
    const r = await run(sdkWallet, 'sdk', () => true);
    expect(r.cases.map((c) => [c.name, c.result])).toEqual(CASE_NAMES.map((n) => [n, 'pass']));
    expect(await nw.db.prisma.payment.count()).toBe(0);
  }, 120_000);

  it('a wallet that broadcasts on its own node fails every pay case, seen in the mempool', async () => {
    const r = await run(
      (uri, e) => flawedWallet('broadcasts', uri, e),
      'broadcaster',
      (x) => x.cases.every((c) => c.expect === 'refuse' || c.result === 'fail'),
    );
    expect(failed(r)).toEqual(FAILS.broadcasts);
    for (const c of r.cases.filter((x) => x.expect === 'pay'))
      expect(c.detail).toMatch(/^broadcast by the wallet, never submitted to the relay \(txid [0-9a-f]{64}\)$/);
  }, 120_000);

  it('a wallet that drops the data output fails exactly the data cases', async () => {
    const r = await run(
      (uri, e) => flawedWallet('drops_data', uri, e),
      'no-data',
      () => true,
    );
    expect(failed(r)).toEqual(FAILS.drops_data);
  }, 120_000);
});
