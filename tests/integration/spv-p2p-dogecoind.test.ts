// The spv node itself (no Next.js) against Dogecoin Core 1.14.9 (`dogecoind -regtest`, the
// reference peer, docs/node.md#the-lightweight-node-chain_backendspv): AuxPoW headers over P2P, broadcast acceptance that is positive
// (docs/relay.md: the tx shown back from the peer's mempool; a conflicting mempool tx is a result;
// silence, as for a tx the peer keeps as an orphan, is "unavailable", never an acceptance), reorgs to a heavier
// branch announced together, a peer that restarts, and a node behind its peer that catches up by
// itself. Skipped, saying why, when dogecoind is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { getNetwork, fromHex, txidOf, parseTx, hashToHex, toHex, decodeAddress } from '@/lib/doge';
import { SpvBackend } from '@/lib/chain/spv/backend';
import { shareOf } from '@/lib/chain/spv/watch';
import { registerWalletAddress } from '@/lib/chain/watch-addresses';
import type { HeaderSyncTimes } from '@/lib/chain/spv/header-sync';
import { BackendUnavailableError } from '@/lib/chain/backend';
import { FrameDecoder, encodeMessage } from '@/lib/p2p/wire';
import { haveDogecoind, startDogecoind, warnIfNoDogecoind, type Dogecoind } from '../helpers/dogecoind';
import { freePort } from '../helpers/ports';
import { until } from '../helpers/wait';
import type { NodeHeaderJson } from '../helpers/json-shapes';

warnIfNoDogecoind('tests/integration/spv-p2p-dogecoind.test.ts');

const net = getNetwork('regtest'); // Dogecoin's own regtest genesis: no override
let node: Dogecoind;
const cleanup: (() => Promise<unknown>)[] = [];

async function freshDb(): Promise<Db> {
  const db = await openTestDb();
  cleanup.push(() => db.close());
  return db;
}
function spv(db: Db, peers: string[], headerSyncTimes?: HeaderSyncTimes, filterShareElements?: number) {
  const s = new SpvBackend({ network: net, peers, checkpoint: null, db: async () => db, headerSyncTimes, filterShareElements });
  cleanup.push(() => s.stop());
  return s;
}
const peerOf = (n: Dogecoind) => `127.0.0.1:${n.p2pPort}`;
const tipIs = async (s: SpvBackend, n: Dogecoind) => (await s.tip()).hash === (await n.rpc('getbestblockhash'));

describe.skipIf(!haveDogecoind)('spv node against dogecoind over P2P', () => {
  let db: Db;
  let s: SpvBackend;

  beforeAll(async () => {
    node = await startDogecoind({ matureBlocks: 80 }); // heights 1..19 plain, 20.. AuxPoW
    await node.mine(40);
    db = await freshDb();
    s = spv(db, [peerOf(node)]);
    await s.start();
  }, 120_000);

  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
    await node?.dispose();
  });

  it('syncs AuxPoW headers mined by RPC into chain_header, chainwork as dogecoind counts it', async () => {
    expect(await until(() => tipIs(s, node), Boolean)).toBe(true);
    const best: string = await node.rpc('getbestblockhash');
    const hdr = await node.rpc<NodeHeaderJson>('getblockheader', best);
    expect(hdr.versionHex).toBe('00620104'); // AuxPoW
    expect((await node.rpc<string>('getblockheader', best, false)).length).toBeGreaterThan(160);
    const [row] = await db.query<{ height: number; chainwork: string }>(
      `SELECT height, chainwork::text AS chainwork FROM chain_header WHERE hash = $1 AND in_best`,
      [best],
    );
    expect(row).toMatchObject({ height: hdr.height });
    expect(BigInt(row!.chainwork)).toBe(BigInt('0x' + hdr.chainwork));
    // One block announced by dogecoind (headers with AuxPoW) arrives too.
    const [h] = await node.mine(1);
    expect(
      await until(
        async () => (await s.tip()).hash,
        (t) => t === h,
      ),
    ).toBe(h);
  }, 60_000);

  it('accepts a broadcast only once dogecoind shows it back from its mempool', async () => {
    for (let i = 0; i < 3; i++) {
      const tx = await node.payTo([{ address: await node.newAddress(), amountKoinu: 100_000_000n }]);
      const txid = txidOf(fromHex(tx));
      const t0 = Date.now();
      const r = await s.broadcast(tx);
      expect(r).toEqual({ ok: true, txid });
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(await node.rpc('getrawmempool')).toContain(txid);
      expect(await s.inMempool(txid)).toBe(true);
    }
  }, 60_000);

  it('reports a double spend: dogecoind’s mempool holds another tx spending the input (it sends no reject for txn-mempool-conflict, an internal code)', async () => {
    const first = await node.payTo([{ address: await node.newAddress(), amountKoinu: 200_000_000n }]);
    const input = parseTx(first).inputs[0]!;
    const spent = { txid: hashToHex(input.prevTxid), vout: input.vout };
    await node.send(first);
    // The wallet would never pick a spent coin itself: name it, and sign (the wallet still has the key).
    const raw = await node.rpc<string>('createrawtransaction', [spent], { [await node.newAddress()]: '1.5' });
    const second = (await node.rpc<{ hex: string }>('signrawtransaction', raw)).hex;
    const r = await s.broadcast(second);
    expect(r).toMatchObject({ ok: false, code: 'double_spend' });
    expect(r.ok ? '' : r.reason).toMatch(/txn-mempool-conflict/);
    expect(r.ok ? '' : r.reason).toContain(txidOf(fromHex(first))); // the tx that holds the input
    expect(await node.rpc('getrawmempool')).not.toContain(txidOf(fromHex(second)));
    expect(await s.inMempool(txidOf(fromHex(second)))).toBe(false);
  }, 60_000);

  it('does not accept a tx whose input does not exist: dogecoind keeps it as an orphan, sends no reject, and the answer is "unavailable" after 10 s', async () => {
    const raw = await node.rpc<string>('createrawtransaction', [{ txid: toHex(randomBytes(32)), vout: 0 }], {
      [await node.newAddress()]: '3',
    });
    const t0 = Date.now();
    const err = await s.broadcast(raw).then(
      () => null,
      (e) => e,
    );
    const took = Date.now() - t0;
    expect(err).toBeInstanceOf(BackendUnavailableError);
    expect((err as Error).message).toMatch(/mempool/);
    expect(took).toBeGreaterThanOrEqual(9_500);
    expect(took).toBeLessThan(15_000);
    expect(await node.rpc('getrawmempool')).not.toContain(txidOf(fromHex(raw)));
    expect(await s.inMempool(txidOf(fromHex(raw)))).toBe(false);
  }, 30_000);

  it('follows 20 reorgs to a heavier branch (invalidateblock, then 2 AuxPoW blocks announced together)', async () => {
    for (let i = 0; i < 20; i++) {
      const [old] = await node.mine(1);
      expect(
        await until(
          async () => (await s.tip()).hash,
          (t) => t === old,
        ),
      ).toBe(old);
      await node.invalidate(old!);
      const branch = await node.mine(2);
      const tip = await until(
        () => s.tip(),
        (t) => t.hash === branch[1],
        15_000,
      );
      expect(tip.hash, `reorg ${i + 1}`).toBe(branch[1]);
      const [gone] = await db.query<{ in_best: boolean }>(`SELECT in_best FROM chain_header WHERE hash = $1`, [old]);
      expect(gone?.in_best).toBe(false);
    }
    const [{ n, distinct, top }] = await db.query<{ n: number; distinct: number; top: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT height)::int AS distinct, max(height)::int AS top FROM chain_header WHERE in_best`,
    );
    expect(top).toBe(await node.rpc('getblockcount'));
    expect(n).toBe(top);
    expect(distinct).toBe(n);
  }, 180_000);

  it('reconnects after dogecoind restarts and follows the chain again', async () => {
    await node.restart();
    expect(
      await until(
        () => s.peers(),
        (n) => n === 1,
        30_000,
      ),
    ).toBe(1);
    const [h] = await node.mine(2);
    await until(() => tipIs(s, node), Boolean, 30_000);
    expect((await s.tip()).height).toBe(await node.rpc('getblockcount'));
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    const tx = await node.payTo([{ address: await node.newAddress(), amountKoinu: 100_000_000n }]);
    expect(await s.broadcast(tx)).toMatchObject({ ok: true });
  }, 90_000);

  it('splits its filter into shares, each on its own connection to the one peer: a block holds the txs of every share', async () => {
    // Three elements a share (docs/node.md#many-stores-and-the-filter; 15,000 in production), so
    // nine wallet addresses make three shares: three connections to one dogecoind.
    const SHARES = 3;
    const byShare: string[][] = [[], [], []];
    while (byShare.some((a) => a.length < 3)) {
      const address = await node.newAddress();
      const share = byShare[shareOf(decodeAddress(address, net).hash160, SHARES)]!;
      if (share.length < 3) share.push(address);
    }
    const db3 = await freshDb();
    await db3.prisma.store.upsert({ where: { id: 1 }, update: {}, create: { id: 1 } });
    for (const [i, address] of byShare.flat().entries()) await registerWalletAddress(db3, 1, address, net, 0, i);
    const s3 = spv(db3, [peerOf(node)], undefined, 3);
    await s3.start();
    expect(
      await until(
        () => s3.peers(),
        (n) => n === SHARES,
      ),
    ).toBe(SHARES);
    const paid: string[] = [];
    for (const share of byShare) paid.push(await node.rpc<string>('sendtoaddress', share[1], 2));
    const [h] = await node.mine(1);
    expect(
      await until(
        async () => (await s3.tip()).hash,
        (t) => t === h,
      ),
    ).toBe(h);
    const [block] = await s3.blocks([h!]);
    expect(block!.txs.map((t) => t.txid)).toEqual(expect.arrayContaining(paid));
    // In block order, each once, and no more than the shares matched.
    const indexes = block!.txs.map((t) => t.index!);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    expect(new Set(block!.txs.map((t) => t.txid)).size).toBe(block!.txs.length);
  }, 90_000);

  it('catches up by itself when it missed every announcement (a relay that drops them)', async () => {
    // A loopback relay that, while muted, drops every headers and inv message from dogecoind.
    const port = await freePort();
    let muted = false;
    const proxy = createServer((client: Socket) => {
      const upstream = connect(node.p2pPort, '127.0.0.1');
      const dec = new FrameDecoder(net.magic);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('data', (d) => upstream.write(d));
      upstream.on('data', (d) => {
        for (const f of dec.push(new Uint8Array(d))) {
          if (muted && (f.command === 'headers' || f.command === 'inv')) continue;
          client.write(encodeMessage(net.magic, f.command, f.payload));
        }
      });
    });
    await new Promise<void>((r) => proxy.listen(port, '127.0.0.1', r));
    cleanup.push(async () => proxy.close());
    const db2 = await freshDb();
    // The sync's own clock, shortened from 5 s ticks and 30 s re-asks: the test waits on the
    // re-ask of a peer that announced nothing, whatever its period.
    const s2 = spv(db2, [`127.0.0.1:${port}`], { tickMs: 500, behindMs: 1_000, anywayMs: 3_000 });
    await s2.start();
    expect(await until(() => tipIs(s2, node), Boolean)).toBe(true);
    muted = true;
    await node.mine(3);
    await new Promise((r) => setTimeout(r, 1_000));
    muted = false; // nothing is announced any more: only the node's own polling finds the blocks
    expect(await until(() => tipIs(s2, node), Boolean, 30_000)).toBe(true);
  }, 120_000);
});
