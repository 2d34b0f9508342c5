// The wallet SDK against the real relay on a real litecoind -regtest node (rpc backend): the
// customer's own key is funded by the node, the SDK builds, signs and submits the payment, the
// node mines it, and the payment goes accepted → confirmed. Also: the demo endpoints do not
// exist on a non-devnet backend.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { REGTEST, decodeTx, pubkeyToAddress, encodeWif } from '@/lib/doge';
import { testXpub } from '../helpers/keys';
import { payUri, waitForStatus, type WalletUtxo } from '@/lib/wallet';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, EXTERNAL_ADDRESS, type Litecoind } from '../helpers/litecoind';
import { startApp, type AppServer } from '../helpers/app-server';
import type { NodeBlockJson } from '../helpers/json-shapes';

const API_KEY = 'test-bootstrap-key-' + randomBytes(12).toString('hex');
const xpub = testXpub(12);
const customerKey = secp256k1.utils.randomSecretKey();
const customer = pubkeyToAddress(secp256k1.getPublicKey(customerKey, true), REGTEST);
let node: Litecoind;
let app: AppServer;

beforeAll(async () => {
  node = await startLitecoind();
  app = await startApp({
    DOGE_NETWORK: 'regtest',
    CHAIN_GENESIS_HASH: LITECOIN_REGTEST_GENESIS,
    CHAIN_BACKEND: 'rpc',
    DOGE_RPC_URL: node.rpcUrl,
    STORE_XPUB: xpub,
    BOOTSTRAP_API_KEY: API_KEY,
  });
}, 180_000);
afterAll(async () => {
  await app?.stop();
  await node?.dispose();
});

describe('wallet SDK on litecoind -regtest', () => {
  it('pays with its own key and UTXO: accepted, then confirmed when the node mines', async () => {
    const fundHex = await node.payTo([{ address: customer, amountKoinu: 40n * 100_000_000n }]);
    const fundTxid = await node.send(fundHex);
    const funding = decodeTx(fundHex, REGTEST).outputs.find((o) => o.address === customer)!;
    await node.mine(1, EXTERNAL_ADDRESS);
    const utxos: WalletUtxo[] = [{ txid: fundTxid, vout: funding.n, amount: funding.value, address: customer }];

    const r0 = await fetch(`${app.url}/api/v1/payments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        items: [{ type: 'item', id: 'SKU-9', name: 'Bagel', count: 3, unit: '2.5' }],
        outputs: [{ type: 'data', data: 'c0ffee' }],
      }),
    });
    expect(r0.status).toBe(201);
    const p = await r0.json();
    const r = await payUri(p.uri, {
      allowHttp: true,
      network: REGTEST,
      utxos,
      keys: [encodeWif(customerKey, true, REGTEST)],
      refund: customer,
    });
    expect(r.submitted).toMatchObject({ status: 'accepted', txid: r.tx.txid, confirmed: 0, required: 1 });
    expect(r.tx.change?.address).toBe(customer);
    // the node itself accepted the SDK's transaction
    expect(await node.rpc('getmempoolentry', r.tx.txid)).toBeTruthy();

    await node.mine(1, EXTERNAL_ADDRESS);
    const final = await waitForStatus(p.relay, p.id, { allowHttp: true, deadline: Date.now() + 30_000, intervalMs: 250 });
    expect(final).toMatchObject({ status: 'confirmed', txid: r.tx.txid, due_sec: 0 });
    const block = await node.rpc<NodeBlockJson>('getblock', await node.rpc('getbestblockhash'));
    expect(block.tx).toContain(r.tx.txid);
  });

  it('has no demo wallet or mining endpoint off devnet', async () => {
    expect((await fetch(`${app.url}/demo/api/wallet`)).status).toBe(404);
    expect((await fetch(`${app.url}/demo/api/mine`, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
