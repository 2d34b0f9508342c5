// Preparation for the `pay` benchmark on the devnet backend: before the app starts, fund a
// bench key with one UTXO per payment by fan-out transactions from the devnet demo wallet
// (lib/chain/devnet/backend.ts on the app's own DATA_DIR/devnet, so the app loads that chain),
// then, with the app up, create payments through the vendor API and pre-sign one tx for each
// with the wallet SDK (lib/wallet), so the timed part is only /relay/pay.
import { createJiti } from 'jiti';
import { join } from 'node:path';
import { ROOT, createPayment } from './app.mjs';

const jiti = createJiti(import.meta.url, { alias: { '@': ROOT } });
const lib = async () => ({
  wallet: await jiti.import(join(ROOT, 'lib/wallet/index.ts')),
  devnet: await jiti.import(join(ROOT, 'lib/chain/devnet/backend.ts')),
  doge: await jiti.import(join(ROOT, 'lib/doge/index.ts')),
  money: await jiti.import(join(ROOT, 'lib/money/index.ts')),
  secp: (await import('@noble/curves/secp256k1.js')).secp256k1,
});

export const UTXO_DOGE = '1.1'; // each payment is 1 DOGE; the rest is fee and change
const FANOUT_MAX = 2000;

/** A fresh regtest key and `count` confirmed UTXOs paying it, written into `dataDir`'s devnet chain. */
export async function fundBenchKey(dataDir, count) {
  const { wallet, devnet, doge, money, secp } = await lib();
  const network = doge.getNetwork('regtest');
  const chain = devnet.createDevnetBackend({ network, dir: join(dataDir, 'devnet'), blockSeconds: 0 });
  await chain.start();
  const key = secp.utils.randomSecretKey();
  const address = doge.pubkeyToAddress(secp.getPublicKey(key, true), network);
  const script = doge.toHex(doge.addressToScript(address, network));
  const each = money.parseKoinu(UTXO_DOGE);
  const utxos = [];
  while (utxos.length < count) {
    const w = chain.demoWallet();
    const spendable = w.balance - money.parseKoinu('50');
    const k = Math.min(count - utxos.length, FANOUT_MAX, spendable > 0n ? Number(spendable / each) : 0);
    if (k < 1) {
      await chain.mine(1); // the demo wallet is refunded by the next block when low
      continue;
    }
    const fan = { outputs: Array.from({ length: k }, () => ({ type: 'p2pkh', address, amount: UTXO_DOGE })), fee_per_kb: '0.01' };
    const tx = wallet.buildPaymentTx(fan, {
      network,
      utxos: w.utxos.map((u) => ({ txid: u.txid, vout: u.vout, amount: u.amount, script: u.script })),
      keys: [w.wif],
    });
    const r = await chain.broadcast(tx.hex);
    if (!r.ok) throw new Error(`fan-out rejected: ${r.reason}`);
    for (let vout = 0; vout < k; vout++) utxos.push({ txid: tx.txid, vout, amount: each, script });
  }
  await chain.mine(1);
  await chain.stop();
  return { key, address, utxos };
}

/**
 * One /relay/pay body each for `count` new payments (bounded concurrency): payment i created on
 * `urls[i % urls.length]` with the API key `keyOf(i)`, spending UTXO `from + i` of `funded`.
 */
export async function preparePayBodiesOn(urls, keyOf, funded, count, { from = 0, concurrency = 8 } = {}) {
  const { wallet, doge } = await lib();
  const network = doge.getNetwork('regtest');
  const bodies = new Array(count);
  let next = 0;
  async function worker() {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const p = await createPayment({ url: urls[i % urls.length] }, keyOf(i));
      const u = funded.utxos[from + i];
      const { key, ...utxo } = u;
      const tx = wallet.buildPaymentTx(p.payment, { network, utxos: [utxo], keys: [key ?? funded.key] });
      const body = { id: p.id, tx: tx.hex, refund: u.address ?? funded.address };
      if (p.payment.relay_token) body.relay_token = p.payment.relay_token;
      bodies[i] = JSON.stringify(body);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return bodies;
}

/** Creates `count` payments on one app with one key and returns one /relay/pay body for each. */
export function preparePayBodies(app, apiKey, funded, count, opts = {}) {
  return preparePayBodiesOn([app.url], () => apiKey, funded, count, opts);
}

/** A regtest store account key (the wallet-SDK devnet test derives its own the same way). */
export async function regtestXpub() {
  const { doge } = await lib();
  return doge.serializeXpub(doge.derivePath(doge.hdFromSeed(new Uint8Array(32).fill(11), doge.REGTEST), "m/44'/1'/0'"));
}

/** The rpc-backend variant: litecoind's wallet (tests/helpers/litecoind.ts) funds `count` UTXOs of a fresh key. */
export async function fundBenchKeyRpc(node, count) {
  const { doge, money, secp } = await lib();
  const { EXTERNAL_ADDRESS } = await jiti.import(join(ROOT, 'tests/helpers/litecoind.ts'));
  const network = doge.getNetwork('regtest');
  const key = secp.utils.randomSecretKey();
  const address = doge.pubkeyToAddress(secp.getPublicKey(key, true), network);
  const each = money.parseKoinu(UTXO_DOGE);
  const utxos = [];
  while (utxos.length < count) {
    // Core refuses one address twice in a tx: one fresh key per output.
    const keys = Array.from({ length: Math.min(count - utxos.length, 500) }, () => {
      const k = secp.utils.randomSecretKey();
      return { key: k, address: doge.pubkeyToAddress(secp.getPublicKey(k, true), network) };
    });
    const byAddress = new Map(keys.map((k) => [k.address, k]));
    const hex = await node.payTo(keys.map((k) => ({ address: k.address, amountKoinu: each })));
    const txid = await node.send(hex);
    for (const o of doge.decodeTx(hex, network).outputs) {
      const k = byAddress.get(o.address);
      if (k) utxos.push({ txid, vout: o.n, amount: o.value, address: k.address, key: k.key });
    }
  }
  await node.mine(1, EXTERNAL_ADDRESS);
  return { key, address, utxos };
}

export async function startLitecoindForBench() {
  const h = await jiti.import(join(ROOT, 'tests/helpers/litecoind.ts'));
  return { node: await h.startLitecoind(), genesis: h.LITECOIN_REGTEST_GENESIS };
}
