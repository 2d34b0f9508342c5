// Several stores paid on a real regtest node (docs/architecture.md#data), shared by the litecoind
// and dogecoind files: the real built app with the rpc backend, the first store seeded by the
// environment and two more made by the operator (invite, owner's account, wallet, API key). Each
// store sells with its own key; the node pays two stores' payments in one block with plain
// sends, two more through /relay/pay, and sends to one store's wallet exactly what an unpaid
// payment of another store asks; every paid payment confirms in its own store, the unpaid ones
// stay unpaid, and each key's payments, events, node text API and invoice listing hold its own
// store only. The node logs its RPC calls (-debug=rpc): the worker reads the shared block once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { deriveAddress, parseXpub, REGTEST } from '@/lib/doge';
import { parsePaymentUri, verifyPaymentEnvelope } from '@/lib/connect';
import { parseKoinu } from '@/lib/money';
import { startApp, type AppServer } from '../helpers/app-server';
import { testXpub } from '../helpers/keys';
import { signIn } from '../helpers/sessions';
import { createStoreKey, openHostedStore, patchStoreSettings } from '../helpers/hosted-stores';
import { vendorClient, outputsOf, type RelayStatusJson } from '../helpers/vendor-client';
import type { ErrorJson, EventJson, ListedPaymentJson } from '../helpers/json-shapes';
import { teaRequest } from '../helpers/payments';
import { readWalletFile } from '../helpers/libdogecoin-files';
import type { PayOutput, RegtestNode } from '../helpers/regtest-node';
import { until } from '../helpers/wait';

/** A regtest node as this suite drives it. */
export interface ChainNode extends RegtestNode {
  /** Mines one block (to an address no store watches); its hash. */
  mineOne(): Promise<string>;
  /** A signed tx from the node's wallet paying `outputs`, not sent. */
  payTo(outputs: PayOutput[]): Promise<string>;
}

export interface RegtestChain {
  name: 'litecoind' | 'dogecoind';
  /** Starts the node with a funded wallet and `-debug=rpc` (each RPC call's method in debug.log). */
  start(): Promise<ChainNode>;
  /** The app's environment for this chain besides the rpc backend (a private genesis). */
  appEnv: Record<string, string>;
  /** The seed byte of each store's account key (tests/helpers/keys.ts), one per store. */
  seeds: readonly [number, number, number];
}

const PASSWORD = 'stores on regtest password';
const SCOPES = ['payments:read', 'payments:write', 'invoices:read', 'node:read', 'node:wallet'] as const;
type Client = ReturnType<typeof vendorClient>;

interface Shop {
  id: number;
  name: string;
  xpub: string;
  key: string;
  client: Client;
  /** The payments this store made, by label. */
  sales: Record<string, { id: string; address: string; amount: string; envelopeKey: string }>;
}

/** Lines of the node's debug.log naming an RPC call of `method` (logged with -debug=rpc). */
function rpcCallsLogged(node: RegtestNode, method: string): number {
  const log = readFileSync(join(node.datadir, 'regtest', 'debug.log'), 'utf8');
  const pattern = new RegExp(`ThreadRPCServer method=${method}(\\s|$)`);
  return log.split('\n').filter((l) => pattern.test(l)).length;
}

export function storesOnRegtest(chain: RegtestChain): void {
  const operatorEmail = `operator@${chain.name}-stores.test`;
  const xpubs = chain.seeds.map((s) => testXpub(s));
  const names = ['Main Street', 'Harbour Café', 'Hill Bakery'];
  const shops: Shop[] = [];
  let node: ChainNode;
  let app: AppServer;
  /** The node's address every /relay/pay of this suite gives as `refund`: the buyer of two stores' invoices. */
  let sharedRefund = '';
  /** txids by label: each paid sale's and the two wallet sends'. */
  const txids: Record<string, string> = {};

  const shop = (i: number) => shops[i];
  const walletAddress = (i: number, idx: number) => deriveAddress(parseXpub(xpubs[i], REGTEST), idx, REGTEST, 0);
  const nodeText = async (i: number, path: string) => {
    const r = await fetch(app.url + path, { headers: { Authorization: `Bearer ${shop(i).key}` } });
    expect(r.status, path).toBe(200);
    return new Uint8Array(await r.arrayBuffer());
  };
  /** Waits until the worker has processed the block at `height` (the public /getChaintip). */
  const chaintipIs = async (height: number) =>
    expect(
      await until(
        async () => (await fetch(app.url + '/getChaintip')).text(),
        (t) => t === `Chain tip: ${height}\n`,
        60_000,
      ),
    ).toBe(`Chain tip: ${height}\n`);
  const text = async (i: number, path: string) => Buffer.from(await nodeText(i, path)).toString('utf8');

  beforeAll(async () => {
    node = await chain.start();
    app = await startApp({
      DOGE_NETWORK: 'regtest',
      CHAIN_BACKEND: 'rpc',
      DOGE_RPC_URL: node.rpcUrl,
      STORE_XPUB: xpubs[0],
      ADMIN_EMAIL: operatorEmail,
      ADMIN_PASSWORD: PASSWORD,
      RATE_LIMIT_RPS: '0',
      ...chain.appEnv,
    });
    await until(
      async () => (await fetch(app.url + '/api/health')).json(),
      (h: { ready?: boolean }) => h.ready === true,
      60_000,
    );
    const operator = await signIn(app.url, operatorEmail, PASSWORD);
    // The first store: the operator owns it, its wallet seeded by STORE_XPUB.
    await patchStoreSettings(app.url, operator, { name: names[0] });
    const first = { id: 1, name: names[0], key: await createStoreKey(app.url, operator, SCOPES) };
    const hosted = [first];
    for (const i of [1, 2]) {
      const ownerEmail = `owner${i}@${chain.name}-stores.test`;
      hosted.push(
        await openHostedStore(app.url, operator, { name: names[i], ownerEmail, password: PASSWORD, xpub: xpubs[i], scopes: SCOPES }),
      );
    }
    for (const [i, s] of hosted.entries()) shops.push({ ...s, xpub: xpubs[i], client: vendorClient(() => app.url, s.key), sales: {} });
    sharedRefund = await node.newAddress();
  }, 240_000);

  afterAll(async () => {
    await app?.stop();
    await node?.dispose();
  });

  describe(`several stores paid on ${chain.name} (rpc backend)`, () => {
    it("each store's key sells in its own store: its wallet's fresh address, an envelope signed with its key and name", async () => {
      const plan: [number, string, string][] = [
        [0, 'a1', '2.5'],
        [0, 'a2', '3'],
        [1, 'b1', '4'],
        [1, 'b2', '5.5'],
        [1, 'b3', '7'],
        [2, 'c1', '6.25'],
      ];
      for (const [i, label, unit] of plan) {
        const p = await shop(i).client.createPayment(teaRequest(unit, { vendor_order_id: label }));
        const uri = parsePaymentUri(p.uri) as { hash15: Uint8Array };
        const env = verifyPaymentEnvelope(await (await fetch(p.envelope_url)).json(), { expectedHash15: uri.hash15 });
        expect(env.payment.vendor_name).toBe(names[i]);
        const [out] = outputsOf(p);
        expect(out.amountKoinu).toBe(parseKoinu(unit));
        const envelopeKey = Buffer.from(env.pubkey).toString('hex');
        shop(i).sales[label] = { id: p.id, address: out.address, amount: unit, envelopeKey };
      }
      // Fresh addresses 0/0, 0/1… of each store's own wallet, and one signing key per store.
      for (const [i, s] of shops.entries()) {
        expect(Object.values(s.sales).map((p) => p.address)).toEqual(Object.values(s.sales).map((_, k) => walletAddress(i, k)));
        expect(new Set(Object.values(s.sales).map((p) => p.envelopeKey)).size).toBe(1);
      }
      expect(new Set(shops.map((s) => Object.values(s.sales)[0].envelopeKey)).size).toBe(3);
      // Another store's payment is 404 not_found for a key, exactly as an id that does not exist.
      for (const s of shops)
        for (const other of shops)
          for (const p of Object.values(other.sales)) {
            const r = await s.client.api<ErrorJson | null>(`/api/v1/payments/${p.id}`);
            if (other === s) expect(r.status).toBe(200);
            else expect([r.status, r.body?.error]).toEqual([404, 'not_found']);
          }
      expect((await shop(0).client.api<ErrorJson>(`/api/v1/payments/nope${randomBytes(8).toString('hex')}`)).body.error).toBe('not_found');
    });

    it('confirms each paid payment in its own store from one block read once for all stores; the unpaid stay unpaid', async () => {
      const { a1, a2 } = shop(0).sales;
      const { b1, b2, b3 } = shop(1).sales;
      const { c1 } = shop(2).sales;
      // Two stores' payments through the relay (DogeConnect), each with the same refund address.
      for (const [i, p] of [
        [1, b2],
        [2, c1],
      ] as const) {
        const tx = await node.payTo([{ address: p.address, amountKoinu: parseKoinu(p.amount) }]);
        const r = await shop(i).client.relay<RelayStatusJson>('pay', { id: p.id, tx, refund: sharedRefund });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body).toMatchObject({ id: p.id, status: 'accepted' });
        txids[p === b2 ? 'b2' : 'c1'] = r.body.txid ?? '';
      }
      // Plain sends to two stores' payments, and to each of two stores' wallets the amount of
      // the other store's unpaid payment.
      const plain: [string, PayOutput][] = [
        ['a1', { address: a1.address, amountKoinu: parseKoinu(a1.amount) }],
        ['b1', { address: b1.address, amountKoinu: parseKoinu(b1.amount) }],
        ['toB', { address: walletAddress(1, 10), amountKoinu: parseKoinu(a2.amount) }],
        ['toA', { address: walletAddress(0, 10), amountKoinu: parseKoinu(b3.amount) }],
      ];
      for (const [label, out] of plain) txids[label] = await node.send(await node.payTo([out]));

      // The worker is idle at the tip: the block read from here on is the new block's.
      await chaintipIs(await node.rpc<number>('getblockcount'));
      const before = rpcCallsLogged(node, 'getblock');
      expect(before, 'the log names the blocks the worker read while syncing').toBeGreaterThan(0);
      const block = await node.mineOne();
      const height = await node.rpc<number>('getblockcount');
      for (const txid of Object.values(txids))
        expect((await node.rpc<{ blockhash?: string }>('gettransaction', txid)).blockhash).toBe(block);

      const paid: [number, string][] = [
        [0, 'a1'],
        [1, 'b1'],
        [1, 'b2'],
        [2, 'c1'],
      ];
      for (const [i, label] of paid) {
        const v = await until(
          () => shop(i).client.api<{ status: string } | null>(`/api/v1/payments/${shop(i).sales[label].id}`),
          (r) => r.body?.status === 'confirmed',
          60_000,
        );
        expect(v.body, label).toMatchObject({ status: 'confirmed', txid: txids[label], block_height: height, exception: null });
      }
      await chaintipIs(height);
      expect(rpcCallsLogged(node, 'getblock') - before).toBe(1);

      for (const [i, p] of [
        [0, a2],
        [1, b3],
      ] as const) {
        const v = (await shop(i).client.api<{ amount_paid: string }>(`/api/v1/payments/${p.id}`)).body;
        expect(v).toMatchObject({ status: 'unpaid', txid: null, exception: null, txids: [] });
        expect(parseKoinu(v.amount_paid)).toBe(0n);
      }
    });
    it("lists each key's own payments and events only: the paid confirmed, the unpaid unpaid", async () => {
      for (const s of shops) {
        const own = Object.values(s.sales).map((p) => p.id);
        const list = await s.client.api<{ payments: ListedPaymentJson[] }>('/api/v1/payments?limit=100');
        expect(list.status).toBe(200);
        expect(list.body.payments.map((p: { id: string }) => p.id).sort()).toEqual([...own].sort());
        const events = (await s.client.api<{ events: EventJson[] }>('/api/v1/events')).body.events;
        expect(events.every((e) => e.payment && own.includes(e.payment.id))).toBe(true);
        for (const [label, p] of Object.entries(s.sales)) {
          const types = events.filter((e) => e.payment?.id === p.id).map((e) => e.type);
          expect(types, label).toEqual(label in txids ? ['payment.accepted', 'payment.confirmed'] : []);
        }
      }
    });

    it("answers each key's node text API with its store's wallet only: balance, addresses, UTXOs, wallet file", async () => {
      const ownTxids = [['a1', 'toA'], ['b1', 'b2', 'toB'], ['c1']].map((labels) => labels.map((l) => txids[l]));
      const ownAddresses = shops.map((s, i) => [...Object.values(s.sales).map((p) => p.address), walletAddress(i, 10)]);
      const balances = ['9.50000000', '12.50000000', '6.25000000'];
      for (const i of [0, 1, 2]) {
        expect(await text(i, '/getBalance')).toBe(`Wallet balance: ${balances[i]}\n`);
        const addresses = await text(i, '/getAddresses');
        const utxos = await text(i, '/getUTXOs');
        const wallet = readWalletFile(await nodeText(i, '/getWallet'));
        for (const a of ownAddresses[i]) expect(addresses).toContain(a);
        for (const t of ownTxids[i]) expect(utxos).toContain(t);
        expect(wallet.txs.map((t) => t.txid).sort()).toEqual([...ownTxids[i]].sort());
        for (const j of [0, 1, 2].filter((j) => j !== i)) {
          for (const a of ownAddresses[j]) expect(addresses + utxos, `store ${i + 1} shows store ${j + 1}'s ${a}`).not.toContain(a);
          for (const t of ownTxids[j]) expect(utxos, `store ${i + 1} shows store ${j + 1}'s tx ${t}`).not.toContain(t);
        }
      }
    });

    it("lists each key's own invoices only, by seller and by a buyer two stores share", async () => {
      const invoices = async (i: number, address: string) => {
        const r = await shop(i).client.api(`/invoices/${address}`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body as { invoices: { id: string; buyer_address: string; seller_address: string }[]; total: number };
      };
      const buyers = new Set<string>();
      for (const [i, s] of shops.entries()) {
        const own = Object.values(s.sales).map((p) => p.id);
        const mine = await invoices(i, walletAddress(i, 0));
        expect(mine.invoices.map((v) => v.id).sort()).toEqual([...own].sort());
        expect(mine.total).toBe(own.length);
        for (const v of mine.invoices) {
          expect(v.seller_address).toBe(walletAddress(i, 0));
          if (v.buyer_address) buyers.add(v.buyer_address);
        }
        for (const j of [0, 1, 2].filter((j) => j !== i))
          expect(await invoices(i, walletAddress(j, 0))).toMatchObject({ invoices: [], total: 0 });
      }
      expect(buyers).toContain(sharedRefund);
      expect((await invoices(1, sharedRefund)).invoices.map((v) => v.id)).toEqual([shop(1).sales.b2.id]);
      expect((await invoices(2, sharedRefund)).invoices.map((v) => v.id)).toEqual([shop(2).sales.c1.id]);
      for (const buyer of buyers)
        for (const [i, s] of shops.entries()) {
          const own = Object.values(s.sales).map((p) => p.id);
          for (const v of (await invoices(i, buyer)).invoices) expect(own, `store ${i + 1}'s invoices for ${buyer}`).toContain(v.id);
        }
    });
  });
}
