// The chain worker for many stores (docs/architecture.md#data), on the in-process devnet chain
// and PGlite: it watches every store's wallet (two xpubs and one fixed address), reads each block
// once for all of them, matches a payment to the store whose address it pays, and the node text
// API answers each store's key with that store's wallet only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db';
import { MAINNET, REGTEST, deriveAddress, parseXpub } from '@/lib/doge';
import { createApiKey } from '@/lib/auth';
import { GAP_LIMIT } from '@/lib/chain/watch-addresses';
import { createPayment } from '@/lib/payments/creation/create-payment';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { serveNodeEndpoint, type NodeEndpointName } from '@/lib/node-api/endpoints';
import { openDevnetStore, type DevnetStore } from '../helpers/devnet-store';
import { testXpub } from '../helpers/keys';
import { TEST_PUBLIC_URL, teaRequest } from '../helpers/payments';
import { readWalletFile } from '../helpers/libdogecoin-files';

const XPUB = [testXpub(71), testXpub(72), testXpub(73)];
const addressOf = (xpub: string, branch: number, i: number) => deriveAddress(parseXpub(xpub, REGTEST), i, REGTEST, branch);
/** Store 3 has a fixed address (STORE_ADDRESS style): one of a key no store watches. */
const FIXED = addressOf(XPUB[2], 0, 7);

let store: DevnetStore;
let db: Db;
const keys: Record<number, string> = {};
const blocksRead: string[] = [];

async function sale(storeId: number): Promise<{ id: string; address: string }> {
  const r = await createPayment(
    { storeId, db, network: REGTEST, publicUrl: TEST_PUBLIC_URL, apiKeyId: null, userId: null, idempotencyKey: null },
    JSON.stringify(teaRequest('3')),
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const body = r.body as { id: string; payment: { outputs: { address: string }[] } };
  return { id: body.id, address: body.payment.outputs[0].address };
}

async function node(name: NodeEndpointName, storeId: number) {
  const r = await serveNodeEndpoint(
    name,
    async () => ({ db, network: REGTEST }),
    new Request(`http://node.test/${name}`, { headers: { Authorization: `Bearer ${keys[storeId]}` } }),
  );
  return { status: r.status, body: new Uint8Array(await r.arrayBuffer()) };
}
const nodeText = async (name: NodeEndpointName, storeId: number) => Buffer.from((await node(name, storeId)).body).toString('utf8');

beforeAll(async () => {
  store = await openDevnetStore({ xpub: XPUB[0], coins: 6, name: 'counter-stores-chain-' });
  db = store.db;
  await db.prisma.store.create({ data: { id: 2, name: 'Store two', storeXpub: XPUB[1] } });
  await db.prisma.store.create({ data: { id: 3, name: 'Store three', storeAddress: FIXED } });
  // Store 4's key is of another network (the back office reports it); store 5's is good.
  await db.prisma.store.create({ data: { id: 4, name: 'Store four', storeXpub: testXpub(74, MAINNET) } });
  await db.prisma.store.create({ data: { id: 5, name: 'Store five', storeXpub: testXpub(75) } });
  for (const id of [1, 2, 3]) {
    await activeRelayKey(db, id);
    keys[id] = (await createApiKey(db, { storeId: id, name: `node ${id}`, scopes: ['node:read', 'node:wallet'] })).secret;
  }
  // Count the blocks the worker fetches from the chain.
  const block = store.chain.block.bind(store.chain);
  store.chain.block = async (hash: string) => {
    blocksRead.push(hash);
    return block(hash);
  };
}, 120_000);
afterAll(async () => store?.close());

describe('one chain worker for every store', () => {
  it("watches every store's wallet: both branches of each xpub to the gap limit, and the fixed address", async () => {
    await store.tick();
    const rows = await db.prisma.walletAddress.findMany({ select: { storeId: true, address: true, branch: true, idx: true } });
    const of = (id: number) => rows.filter((r) => r.storeId === id);
    expect(of(1)).toHaveLength(2 * GAP_LIMIT);
    expect(of(2)).toHaveLength(2 * GAP_LIMIT);
    expect(of(2).find((r) => r.branch === 1 && r.idx === 0)?.address).toBe(addressOf(XPUB[1], 1, 0));
    expect(of(3).map((r) => r.address)).toEqual([FIXED]);
    // A store's key of another network watches nothing and stops no other store's wallet.
    expect(of(4)).toHaveLength(0);
    expect(of(5)).toHaveLength(2 * GAP_LIMIT);
    await store.tick();
    expect(await db.prisma.walletAddress.count({ where: { storeId: 5 } })).toBe(2 * GAP_LIMIT);
  });

  it('matches a payment to the store whose address it pays, reading the block once for all stores', async () => {
    const one = await sale(1);
    const two = await sale(2);
    const three = await sale(3);
    expect(two.address).toBe(addressOf(XPUB[1], 0, 0));
    expect(three.address).toBe(FIXED);
    await store.sendPlain(two.address, '3');
    await store.sendPlain(three.address, '3');
    // Money to store 2's change branch that no payment asked for: the wallet's, not a sale's.
    await store.sendPlain(addressOf(XPUB[1], 1, 0), '2');
    await store.chain.mine(1);
    blocksRead.length = 0;
    await store.tick();
    const tip = await store.chain.tip();
    expect(blocksRead.filter((h) => h === tip.hash)).toHaveLength(1);

    const row = (id: string) => db.prisma.payment.findUniqueOrThrow({ where: { id }, select: { storeId: true, status: true } });
    expect(await row(one.id)).toEqual({ storeId: 1, status: 'unpaid' });
    expect(await row(two.id)).toMatchObject({ storeId: 2, status: expect.stringMatching(/^(accepted|confirmed)$/) });
    expect(await row(three.id)).toMatchObject({ storeId: 3, status: expect.stringMatching(/^(accepted|confirmed)$/) });
    const txs = await db.prisma.paymentTx.findMany({ select: { paymentId: true, storeId: true } });
    expect(txs.find((t) => t.paymentId === two.id)?.storeId).toBe(2);
    expect(txs.find((t) => t.paymentId === three.id)?.storeId).toBe(3);
  });

  it("answers each store's key with its own wallet: balance, addresses, UTXOs and the wallet file", async () => {
    expect(await nodeText('getBalance', 1)).toBe('Wallet balance: 0.00000000\n');
    expect(await nodeText('getBalance', 2)).toBe('Wallet balance: 5.00000000\n');
    expect(await nodeText('getBalance', 3)).toBe('Wallet balance: 3.00000000\n');
    const addresses = await nodeText('getAddresses', 2);
    expect(addresses).toContain(addressOf(XPUB[1], 0, 0));
    expect(addresses).not.toContain(addressOf(XPUB[0], 0, 0));
    expect(addresses).not.toContain(FIXED);
    expect(await nodeText('getAddresses', 3)).toBe(`address: ${FIXED}\n`);
    const utxos2 = await nodeText('getUTXOs', 2);
    expect(utxos2).toContain(addressOf(XPUB[1], 1, 0));
    expect(utxos2).not.toContain(FIXED);
    expect(await nodeText('getUTXOs', 1)).toBe('Total Unspent: 0.00000000\n');

    const file2 = readWalletFile((await node('getWallet', 2)).body);
    const file3 = readWalletFile((await node('getWallet', 3)).body);
    expect(file2.txs.length).toBe(2);
    expect(file3.txs.length).toBe(1);
    expect(file2.txs.map((t) => t.txid)).not.toContain(file3.txs[0].txid);
    expect(file2.addresses.length).toBe(2 * GAP_LIMIT + 2); // the used 0/0 and 1/0 moved each branch's gap on by one
  });
});
