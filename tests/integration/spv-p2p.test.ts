// The spv node itself (no Next.js) against real litecoind -regtest peers: resume after its own
// restart, litecoind restarted mid-sync, a second peer taking over, mempool txs relayed through
// the bloom filter, and peers sending garbage (a local socket server playing a malicious peer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import { getNetwork, decodeAddress, toHex, sha256d, hashToHex, txidOf, fromHex } from '@/lib/doge';
import { SpvBackend } from '@/lib/chain/spv/backend';
import {
  FrameDecoder,
  decodeInv,
  encodeInv,
  encodeMessage,
  encodeReject,
  encodeVersion,
  HEADER_LEN,
  NODE_BLOOM,
  INV_TX,
} from '@/lib/p2p/wire';
import { startLitecoind, LITECOIN_REGTEST_GENESIS, EXTERNAL_ADDRESS, type Litecoind } from '../helpers/litecoind';
import { freePort } from '../helpers/ports';

const net = getNetwork('regtest', { genesisHash: LITECOIN_REGTEST_GENESIS });
let a: Litecoind;
let b: Litecoind;
const cleanup: (() => Promise<unknown>)[] = [];

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await fn();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
    v = await fn();
  }
  return v;
}

async function freshDb(): Promise<Db> {
  const db = await openTestDb();
  cleanup.push(() => db.close());
  return db;
}

function spv(db: Db, peers: string[]) {
  const s = new SpvBackend({ network: net, peers, checkpoint: null, db: async () => db });
  cleanup.push(() => s.stop());
  return s;
}
const peerOf = (n: Litecoind) => `127.0.0.1:${n.p2pPort}`;
const tipIs = async (s: SpvBackend, n: Litecoind) => (await s.tip()).hash === (await n.rpc('getbestblockhash'));

beforeAll(async () => {
  // Whitelisted, as docs/node.md advises for one's own node: litecoind announces a new mempool tx
  // to the spv node at once instead of after its random trickle delay (5 s on average).
  const whitelist = ['-whitelist=127.0.0.1'];
  [a, b] = await Promise.all([startLitecoind({ matureBlocks: 110, args: whitelist }), startLitecoind({ wallet: false, args: whitelist })]);
  await a.mine(400, EXTERNAL_ADDRESS);
}, 120_000);

afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  await a?.dispose();
  await b?.dispose();
});

describe('spv node over P2P', () => {
  it('resumes from chain_header after its own restart', async () => {
    const db = await freshDb();
    const s1 = spv(db, [peerOf(a)]);
    await s1.start();
    expect(await until(() => tipIs(s1, a), Boolean)).toBe(true);
    const h1 = (await s1.tip()).height;
    await s1.stop();
    await a.mine(30, EXTERNAL_ADDRESS);
    const s2 = spv(db, [peerOf(a)]);
    await s2.start();
    expect((await s2.tip()).height).toBe(h1); // loaded from the store before any peer answered
    expect(await until(() => tipIs(s2, a), Boolean)).toBe(true);
    const [{ n, distinct }] = await db.query<{ n: number; distinct: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT height)::int AS distinct FROM chain_header WHERE in_best`,
    );
    expect(n).toBe(h1 + 30);
    expect(distinct).toBe(n);
  }, 60_000);

  it('reconnects after litecoind restarts mid-sync and completes', async () => {
    await a.mine(2100, EXTERNAL_ADDRESS); // more than one headers message of 2,000
    // A loopback relay to litecoind that, on the first connection, passes only the first
    // 170 kB from litecoind (the first headers message is 162 kB) and then holds the rest: the
    // node is deterministically part way when litecoind restarts.
    const port = await freePort();
    let first = true;
    const proxy = createServer((client: Socket) => {
      const upstream = connect(a.p2pPort, '127.0.0.1');
      let budget = first ? 170_000 : Infinity;
      first = false;
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('data', (d) => upstream.write(d));
      upstream.on('data', (d) => {
        if (budget <= 0) return;
        client.write(d.subarray(0, Math.min(d.length, budget)));
        budget -= d.length;
      });
    });
    await new Promise<void>((r) => proxy.listen(port, '127.0.0.1', r));
    cleanup.push(async () => proxy.close());
    const db = await freshDb();
    const s = spv(db, [`127.0.0.1:${port}`]);
    await s.start();
    const mid = await until(
      async () => (await s.tip()).height,
      (h) => h >= 2000,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await s.tip()).height).toBe(mid);
    expect(mid).toBeLessThan(await a.rpc('getblockcount'));
    await a.restart();
    expect(await until(() => tipIs(s, a), Boolean, 60_000)).toBe(true);
    expect(s.syncStatus()).toMatchObject({ synced: true, peers: 1 });
  }, 120_000);

  it('keeps working through a second peer when the first one stops', async () => {
    await b.connect(a);
    await until(async () => (await b.rpc('getbestblockhash')) === (await a.rpc('getbestblockhash')), Boolean, 60_000);
    const db = await freshDb();
    const s = spv(db, [peerOf(a), peerOf(b)]);
    await s.start();
    expect(await until(() => tipIs(s, a), Boolean, 60_000)).toBe(true);
    expect(
      await until(
        () => s.peers(),
        (n) => n === 2,
      ),
    ).toBe(2);
    await a.stop();
    try {
      await b.mine(3, EXTERNAL_ADDRESS);
      expect(await until(() => tipIs(s, b), Boolean)).toBe(true);
      expect(await s.peers()).toBe(1);
      const blocks = await s.blocks([await b.rpc('getbestblockhash')]);
      expect(blocks[0]!.height).toBe(await b.rpc('getblockcount'));
    } finally {
      await a.restart();
      await a.connect(b);
    }
  }, 120_000);

  it('sees a wallet payment in the mempool through the filter, then in its block with a verified proof', async () => {
    const db = await freshDb();
    const address: string = await a.newAddress();
    const h160 = toHex(decodeAddress(address, net).hash160);
    await db.prisma.walletAddress.create({ data: { address, hash160: h160, script: `76a914${h160}88ac` } });
    const s = spv(db, [peerOf(a)]);
    await s.start();
    expect(await until(() => tipIs(s, a), Boolean)).toBe(true);
    const txid: string = await a.rpc('sendtoaddress', address, '1.25');
    expect(await until(() => s.inMempool(txid), Boolean, 30_000)).toBe(true);
    const [hash] = await a.mine(1, EXTERNAL_ADDRESS);
    await until(() => tipIs(s, a), Boolean);
    const [blk] = await s.blocks([hash!]);
    expect(blk!.txCount).toBe(2);
    const paid = blk!.txs.find((t) => t.txid === txid);
    expect(paid?.outputs.some((o) => o.script === `76a914${h160}88ac` && o.value === 125_000_000n)).toBe(true);
    expect(await s.inMempool(txid)).toBe(false); // confirmed now
  }, 60_000);

  it('survives peers that send garbage, bad checksums and oversized messages, and bans them', async () => {
    const kinds = ['random', 'checksum', 'oversize', 'bad-headers'] as const;
    const servers: Server[] = [];
    const ports: number[] = [];
    const hits: Record<string, number> = {};
    for (const kind of kinds) {
      const port = await freePort();
      const srv = createServer((sock: Socket) => {
        hits[kind] = (hits[kind] ?? 0) + 1;
        sock.on('error', () => undefined);
        if (kind === 'random') sock.write(randomBytes(5000));
        if (kind === 'checksum') {
          const m = encodeMessage(net.magic, 'version', randomBytes(100));
          m[HEADER_LEN - 1] ^= 0xff;
          sock.write(m);
        }
        if (kind === 'oversize') {
          const m = encodeMessage(net.magic, 'headers', new Uint8Array(0));
          new DataView(m.buffer).setUint32(16, 64 * 1024 * 1024, true);
          sock.write(m);
        }
        if (kind === 'bad-headers') {
          // A proper handshake, then headers that do not parse.
          sock.write(
            encodeMessage(
              net.magic,
              'version',
              encodeVersion({
                version: 70015,
                services: NODE_BLOOM,
                timestamp: 0n,
                nonce: 1n,
                userAgent: '/evil/',
                startHeight: 10,
                relay: true,
              }),
            ),
          );
          sock.write(encodeMessage(net.magic, 'verack'));
          setTimeout(() => sock.write(encodeMessage(net.magic, 'headers', randomBytes(3000))), 200);
        }
      });
      await new Promise<void>((r) => srv.listen(port, '127.0.0.1', r));
      servers.push(srv);
      ports.push(port);
    }
    cleanup.push(async () => servers.forEach((s) => s.close()));
    const db = await freshDb();
    const s = spv(db, [...ports.map((p) => `127.0.0.1:${p}`), peerOf(a)]);
    await s.start();
    expect(await until(() => tipIs(s, a), Boolean, 60_000)).toBe(true);
    await until(
      async () => Object.keys(hits).length,
      (n) => n === kinds.length,
    );
    await new Promise((r) => setTimeout(r, 1500));
    // Each bad peer was dialled, dropped and banned: no redial within the ban.
    for (const k of kinds) expect(hits[k]).toBe(1);
    expect(await s.peers()).toBe(1);
    await a.mine(1, EXTERNAL_ADDRESS);
    expect(await until(() => tipIs(s, a), Boolean)).toBe(true);
  }, 60_000);

  it('declines a broadcast that the peer answers with reject (as Dogecoin Core does; Litecoin Core no longer sends reject)', async () => {
    // A scripted peer: handshake, getdata for announced txs, reject every tx, answer pings.
    const port = await freePort();
    const srv = createServer((sock: Socket) => {
      sock.on('error', () => undefined);
      const dec = new FrameDecoder(net.magic);
      const send = (cmd: string, payload?: Uint8Array) => sock.write(encodeMessage(net.magic, cmd, payload));
      send(
        'version',
        encodeVersion({
          version: 70015,
          services: NODE_BLOOM,
          timestamp: 0n,
          nonce: 2n,
          userAgent: '/Shibetoshi:1.14.6/',
          startHeight: 0,
          relay: true,
        }),
      );
      send('verack');
      sock.on('data', (d) => {
        for (const f of dec.push(new Uint8Array(d))) {
          if (f.command === 'ping') send('pong', f.payload);
          if (f.command === 'inv') send('getdata', encodeInv(decodeInv(f.payload).filter((i) => i.type === INV_TX)));
          if (f.command === 'tx')
            send(
              'reject',
              encodeReject({ message: 'tx', code: 0x42, reason: 'insufficient priority', hash: hashToHex(sha256d(f.payload)) }),
            );
        }
      });
    });
    await new Promise<void>((r) => srv.listen(port, '127.0.0.1', r));
    cleanup.push(async () => srv.close());
    const s = spv(await freshDb(), [`127.0.0.1:${port}`]);
    const tx = await a.payTo([{ address: await a.newAddress(), amountKoinu: 100_000_000n }]);
    const r = await s.broadcast(tx);
    expect(r).toMatchObject({ ok: false, code: 'rejected' });
    expect(r.ok ? '' : r.reason).toMatch(/insufficient priority/);
    expect(await s.inMempool(txidOf(fromHex(tx)))).toBe(false);
  }, 30_000);
});
