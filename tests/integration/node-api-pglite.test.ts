// The watch-only wallet tracker and the node text API on embedded PGlite, driven by synthetic
// BlockSummaries over real mainnet headers: tracking, spends, idempotent replay, reorg rewind,
// gap-limit watching, golden listings on a seeded wallet, both binary files read back by an
// independent reader, and the authorisation matrix.
import { fixturePath } from '../helpers/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import {
  addressToScript,
  decodeAddress,
  deriveAddress,
  encodeTx,
  fromHex,
  hexToHash,
  parseXpub,
  serializeXpub,
  toHex,
  txidOf,
  REGTEST,
} from '@/lib/doge';
import { testAccount } from '../helpers/keys';
import type { BlockSummary, BlockTxSummary } from '@/lib/chain/backend';
import { trackBlockConnected, trackBlockDisconnected, walletWatchSet } from '@/lib/chain/wallet-tracker';
import { syncWatchAddresses, GAP_LIMIT } from '@/lib/chain/watch-addresses';
import { serveNodeEndpoint, NODE_SCOPES, type NodeEndpointName } from '@/lib/node-api/endpoints';
import { headersFileStream } from '@/lib/node-api/http';
import { publishChainState } from '@/lib/chain/chain-state';
import { createApiKey, createSession, SESSION_COOKIE } from '@/lib/auth';
import { readHeadersFile, readWalletFile, FILE_MAGIC_HEX } from '../helpers/libdogecoin-files';

const network = REGTEST;
const xpubKey = testAccount(7, network);
const xpub = serializeXpub(xpubKey);
const acct = parseXpub(xpub, network);
const addr = (branch: number, i: number) => deriveAddress(acct, i, network, branch);
const EXTERNAL = 'mfWxJ45yp2SFn7UciZyNpvDKrzbhyfKrY8';

const fixture = JSON.parse(readFileSync(fixturePath('doge-mainnet-headers.json'), 'utf8')) as {
  entries: { height: string; hash: string; hex: string }[];
};
const HEADERS = fixture.entries
  .filter((e) => Number(e.height) <= 10)
  .map((e) => ({ height: Number(e.height), hash: e.hash, header: fromHex(e.hex.slice(0, 160)) }));

let db: Db;
const ctx = async () => ({ db, network });

function mkTx(inputs: { txid: string; vout: number }[], outputs: { address: string; value: bigint }[]): BlockTxSummary {
  const raw = encodeTx({
    version: 1,
    inputs: (inputs.length ? inputs : [{ txid: '00'.repeat(32), vout: 0xffffffff }]).map((i) => ({
      prevTxid: hexToHash(i.txid),
      vout: i.vout,
      scriptSig: Uint8Array.of(1, 2),
      sequence: 0xffffffff,
    })),
    outputs: outputs.map((o) => ({ value: o.value, script: addressToScript(o.address, network) })),
    locktime: 0,
  });
  return {
    txid: txidOf(raw),
    inputs,
    outputs: outputs.map((o, n) => ({ n, value: o.value, script: toHex(addressToScript(o.address, network)) })),
    raw,
    signalsRbf: false,
  };
}

function block(height: number, txs: BlockTxSummary[]): BlockSummary {
  const h = HEADERS[height];
  return {
    hash: h.hash,
    prevHash: height ? HEADERS[height - 1].hash : '00'.repeat(32),
    height,
    time: 0,
    header: h.header,
    size: 1000,
    txCount: txs.length,
    totalTxSize: 900,
    txs,
  };
}

async function get(name: NodeEndpointName, key?: string) {
  const r = await serveNodeEndpoint(
    name,
    ctx,
    new Request(`http://node.test/${name}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} }),
  );
  return { status: r.status, type: r.headers.get('content-type'), body: new Uint8Array(await r.arrayBuffer()) };
}
const text = async (name: NodeEndpointName, key?: string) => {
  const r = await get(name, key);
  return { ...r, text: Buffer.from(r.body).toString('utf8') };
};

let readKey: string;
let walletKey: string;
let otherKey: string;

beforeAll(async () => {
  db = await openTestDb();
  for (const h of HEADERS) {
    await db.prisma.chainHeader.create({
      data: {
        hash: h.hash,
        height: h.height,
        prevHash: h.height ? HEADERS[h.height - 1].hash : '00'.repeat(32),
        chainwork: String(h.height + 1),
        header: new Uint8Array(h.header),
        time: 0,
        inBest: true,
      },
    });
  }
  readKey = (await createApiKey(db, { storeId: 1, name: 'r', scopes: ['node:read'] })).secret;
  walletKey = (await createApiKey(db, { storeId: 1, name: 'w', scopes: ['node:wallet'] })).secret;
  otherKey = (await createApiKey(db, { storeId: 1, name: 'o', scopes: ['payments:read', 'payments:write', 'invoices:read'] })).secret;
});
afterAll(async () => {
  await db?.close();
});

describe('node API on an empty wallet', () => {
  it('answers empty listings, and 404 Wallet file not found without a receiving wallet', async () => {
    expect(await text('getBalance', readKey)).toMatchObject({ status: 200, text: 'Wallet balance: 0.00000000\n' });
    expect((await text('getBalance', readKey)).type).toBe('text/plain');
    expect((await text('getUTXOs', readKey)).text).toBe('Total Unspent: 0.00000000\n');
    expect((await text('getTransactions', readKey)).text).toBe('Spent Balance: 0.00000000\n');
    expect((await text('getAddresses', readKey)).text).toBe('');
    const w = await text('getWallet', walletKey);
    expect(w).toMatchObject({ status: 404, text: 'Wallet file not found' });
    expect(w.type).toBe('text/plain');
    expect((await text('getChaintip')).text).toBe('Chain tip: 10\n');
    expect((await text('getLastBlockInfo')).text).toBe('Block size: 0\nTx count: 0\nTotal tx size: 0\n');
    expect((await text('getTimestamp')).text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n$/);
  });
});

describe('watch-only wallet tracker', () => {
  let A: BlockTxSummary;
  let C: BlockTxSummary;

  it('watches both branches up to the gap limit', async () => {
    await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: xpub }, create: { id: 1, storeXpub: xpub } });
    await syncWatchAddresses(db, network);
    const rows = await db.prisma.walletAddress.findMany({ orderBy: [{ branch: 'asc' }, { idx: 'asc' }] });
    expect(rows.length).toBe(2 * GAP_LIMIT);
    expect(rows[0]).toMatchObject({ address: addr(0, 0), branch: 0, idx: 0, hash160: toHex(decodeAddress(addr(0, 0), network).hash160) });
    expect(rows[GAP_LIMIT]).toMatchObject({ address: addr(1, 0), branch: 1, idx: 0 });
    const listed = (await text('getAddresses', readKey)).text;
    expect(listed).toBe(rows.map((r) => `address: ${r.address}\n`).join(''));
  });

  it('records outputs paying watched addresses, idempotently, and moves the gap limit on', async () => {
    A = mkTx(
      [],
      [
        { address: addr(0, 0), value: 150_000_000n },
        { address: EXTERNAL, value: 100_000_000n },
        { address: addr(0, 3), value: 5_000n },
      ],
    );
    const B = mkTx([{ txid: 'aa'.repeat(32), vout: 0 }], [{ address: EXTERNAL, value: 7n }]);
    const b5 = block(5, [A, B]);
    expect(await trackBlockConnected(db, network, b5)).toBe(1);
    expect(await trackBlockConnected(db, network, b5)).toBe(1); // replay after a crash
    expect(await db.prisma.walletTx.count()).toBe(1);
    const outs = await db.prisma.walletOutput.findMany({ orderBy: { vout: 'asc' } });
    expect(outs.map((o) => [o.txid, o.vout, o.amount, o.height])).toEqual([
      [A.txid, 0, 150_000_000n, 5],
      [A.txid, 2, 5_000n, 5],
    ]);
    expect(await db.prisma.walletAddress.count({ where: { branch: 0 } })).toBe(3 + 1 + GAP_LIMIT);
  });

  it('marks spends and lists spent and unspent outputs byte for byte', async () => {
    C = mkTx(
      [{ txid: A.txid, vout: 0 }],
      [
        { address: addr(1, 0), value: 40_000_000n },
        { address: EXTERNAL, value: 109_000_000n },
        { address: addr(0, 1), value: 0n },
      ],
    );
    await trackBlockConnected(db, network, block(7, [C]));
    await trackBlockConnected(db, network, block(7, [C]));
    const rec = (txid: string, vout: number, address: string, amount: string, conf: number, spendable: number) =>
      `txid:           ${txid}\nvout:           ${vout}\naddress:        ${address}\nscript_pubkey:  ${toHex(addressToScript(address, network))}\n` +
      `amount:         ${amount}\nconfirmations:  ${conf}\nspendable:      ${spendable}\nsolvable:       1\n`;
    const sep = '----------------------\n';
    const [c0, c2] = [0, 2];
    const utxo = (await text('getUTXOs', readKey)).text;
    expect(utxo).toBe(
      `${sep}Unspent UTXO:\n${rec(A.txid, 2, addr(0, 3), '0.00005000', 6, 1)}` +
        `${sep}Unspent UTXO:\n${rec(C.txid, c0, addr(1, 0), '0.40000000', 4, 1)}` +
        `${sep}Unspent UTXO:\n${rec(C.txid, c2, addr(0, 1), '0.00000000', 4, 1)}` +
        'Total Unspent: 0.40005000\n',
    );
    expect((await text('getTransactions', readKey)).text).toBe(
      `${sep}${rec(A.txid, 0, addr(0, 0), '1.50000000', 6, 0)}Spent Balance: 1.50000000\n`,
    );
    expect((await text('getBalance', readKey)).text).toBe('Wallet balance: 0.40005000\n');
  });

  it('prints the last processed block as the worker published it, and the tip', async () => {
    await publishChainState(db, { last_block_size: 4130, last_block_tx_count: 11, last_block_total_tx_size: 3355 });
    expect((await text('getLastBlockInfo')).text).toBe('Block size: 4130\nTx count: 11\nTotal tx size: 3355\n');
    expect((await text('getChaintip')).text).toBe('Chain tip: 10\n');
  });

  it('serves a wallet file that reads back: magic, version, genesis, key, addresses, txs', async () => {
    const r = await get('getWallet', walletKey);
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/octet-stream');
    const f = readWalletFile(r.body);
    expect(f.magic).toBe(FILE_MAGIC_HEX);
    expect(f.version).toBe(1);
    expect(f.genesis).toBe(network.genesisHash);
    expect(f.masterPubkeys).toEqual([[xpub, xpub]]);
    const rows = await db.prisma.walletAddress.findMany({ orderBy: [{ branch: 'asc' }, { idx: 'asc' }] });
    expect(f.addresses).toEqual(
      rows.map((a) => ({ hash160: toHex(decodeAddress(a.address, network).hash160), type: 0, childIndex: a.idx, ignore: 0 })),
    );
    expect(f.txs.map((t) => [t.height, t.txid])).toEqual([
      [5, A.txid],
      [7, C.txid],
    ]);
    for (const t of f.txs) expect(t.computedTxid).toBe(t.txid);
  });

  it('serves the headers file, streamed in pages, that reads back against the header store', async () => {
    const r = await get('getHeaders');
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/octet-stream');
    for (const body of [r.body, new Uint8Array(await new Response(await headersFileStream(db, 3)).arrayBuffer())]) {
      const f = readHeadersFile(body);
      expect(f.magic).toBe(FILE_MAGIC_HEX);
      expect(f.version).toBe(3);
      expect(f.records.length).toBe(await db.prisma.chainHeader.count({ where: { inBest: true } }));
      expect(f.records[0].hash).toBe('1a91e3dace36e2be3bf030a65679fe821aa1d6ef92e7c9902eb318182c355691'); // mainnet genesis
      f.records.forEach((rec, i) => {
        expect(rec.height).toBe(i);
        expect(rec.hash).toBe(rec.computedHash);
        expect(rec.chainwork).toBe(BigInt(i + 1));
        if (i) expect(rec.prevHash).toBe(f.records[i - 1].hash);
      });
    }
  });

  it('fails a headers download that a reorg would splice into two branches', async () => {
    const reader = (await headersFileStream(db, 3)).getReader();
    expect((await reader.read()).value!.length).toBe(8);
    expect((await reader.read()).value!.length).toBe(3 * 148); // heights 0..2
    await db.prisma.chainHeader.update({ where: { hash: HEADERS[4].hash }, data: { inBest: false } });
    await db.prisma.chainHeader.create({
      data: {
        hash: 'ee'.repeat(32),
        height: 4,
        prevHash: 'dd'.repeat(32),
        chainwork: '5',
        header: new Uint8Array(80).fill(0xdd),
        time: 0,
        inBest: true,
      },
    });
    try {
      await expect(reader.read()).rejects.toThrow(/best chain changed at height 4/);
    } finally {
      await db.prisma.chainHeader.delete({ where: { hash: 'ee'.repeat(32) } });
      await db.prisma.chainHeader.update({ where: { hash: HEADERS[4].hash }, data: { inBest: true } });
    }
  });

  it('exposes the watch set a backend must filter on', async () => {
    const w = await walletWatchSet(db);
    const rows = await db.prisma.walletAddress.findMany({ orderBy: [{ branch: 'asc' }, { idx: 'asc' }] });
    expect(w.scripts).toEqual(rows.map((r) => r.script));
    expect(w.hash160s[0]).toBe(toHex(decodeAddress(addr(0, 0), network).hash160));
    expect(w.outpoints).toEqual(
      [
        { txid: A.txid, vout: 2 },
        { txid: C.txid, vout: 0 },
        { txid: C.txid, vout: 2 },
      ].sort((x, y) => (x.txid + x.vout < y.txid + y.vout ? -1 : 1)),
    );
  });

  it('rewinds a disconnected block: spends unmarked, its outputs and txs removed; idempotent', async () => {
    await trackBlockDisconnected(db, HEADERS[7].hash);
    await trackBlockDisconnected(db, HEADERS[7].hash);
    expect(await db.prisma.walletOutput.count({ where: { txid: C.txid } })).toBe(0);
    expect(await db.prisma.walletTx.count({ where: { txid: C.txid } })).toBe(0);
    expect((await text('getTransactions', readKey)).text).toBe('Spent Balance: 0.00000000\n');
    expect((await text('getBalance', readKey)).text).toBe('Wallet balance: 1.50005000\n');
    // The same tx confirmed again in another block is recorded again.
    await trackBlockConnected(db, network, block(9, [C]));
    expect((await text('getBalance', readKey)).text).toBe('Wallet balance: 0.40005000\n');
    await trackBlockDisconnected(db, HEADERS[9].hash);
    await trackBlockDisconnected(db, HEADERS[5].hash);
    expect(await db.prisma.walletOutput.count()).toBe(0);
    expect(await db.prisma.walletTx.count()).toBe(0);
    expect((await text('getUTXOs', readKey)).text).toBe('Total Unspent: 0.00000000\n');
  });
});

describe('authorisation', () => {
  const cases = Object.entries(NODE_SCOPES) as [NodeEndpointName, string | null][];

  it.each(cases)('%s', async (name, scope) => {
    if (scope === null) {
      expect((await get(name)).status).toBe(200);
      return;
    }
    const right = scope === 'node:read' ? readKey : walletKey;
    const wrong = scope === 'node:read' ? walletKey : readKey;
    for (const key of [undefined, 'ck_not-a-key', otherKey, wrong]) {
      const r = await text(name, key);
      expect(r.status).toBe(401);
      expect(r.text).toBe('Unauthorized');
      expect(r.type).toBe('text/plain');
    }
    expect((await get(name, right)).status).toBe(200);
  });
});

describe('back-office sessions', () => {
  it('let a signed-in user read what the role grants, and nothing else', async () => {
    const cookie = async (role: string) => {
      const id = `u-${role}`;
      await db.prisma.user.create({
        data: { id, email: `${role}@example.test`, passwordHash: 'x', role, memberships: { create: { storeId: 1, role } } },
      });
      return `${SESSION_COOKIE}=${(await createSession(db, id)).token}`;
    };
    const as = async (name: NodeEndpointName, c: string) =>
      (await serveNodeEndpoint(name, ctx, new Request(`http://node.test/${name}`, { headers: { cookie: c } }))).status;
    const owner = await cookie('owner');
    const manager = await cookie('manager');
    const cashier = await cookie('cashier');
    expect([await as('getBalance', owner), await as('getWallet', owner)]).toEqual([200, 200]);
    expect([await as('getBalance', manager), await as('getWallet', manager)]).toEqual([200, 401]);
    expect([await as('getBalance', cashier), await as('getWallet', cashier)]).toEqual([401, 401]);
    expect(await as('getBalance', `${SESSION_COOKIE}=forged`)).toBe(401);
  });
});

describe('single-address wallet (STORE_ADDRESS)', () => {
  it('watches that address and writes a wallet file without an account key', async () => {
    const other = await openTestDb();
    try {
      const single = addr(0, 9);
      await other.prisma.store.create({ data: { id: 1, storeAddress: single } });
      await syncWatchAddresses(other, network);
      const key = (await createApiKey(other, { storeId: 1, name: 'k', scopes: ['node:read', 'node:wallet'] })).secret;
      const c = async () => ({ db: other, network });
      const req = (n: string) => new Request(`http://node.test/${n}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(await (await serveNodeEndpoint('getAddresses', c, req('getAddresses'))).text()).toBe(`address: ${single}\n`);
      const f = readWalletFile(new Uint8Array(await (await serveNodeEndpoint('getWallet', c, req('getWallet'))).arrayBuffer()));
      expect(f.masterPubkeys).toEqual([]);
      expect(f.addresses).toEqual([{ hash160: toHex(decodeAddress(single, network).hash160), type: 0, childIndex: 0, ignore: 0 }]);
      expect(f.txs).toEqual([]);
      expect((await (await serveNodeEndpoint('getHeaders', c, req('getHeaders'))).arrayBuffer()).byteLength).toBe(8); // empty header store
    } finally {
      await other.close();
    }
  });
});
