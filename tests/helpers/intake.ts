// The real intake paths of a tx, for the model-based test (tests/integration/payment-model.test.ts):
// each builds a tx's facts with the code that path runs in production, against a node the test
// plays (its mempool, parents included): the rpc backend's getrawmempool diff and its P2P
// announcement handler (over a scripted JSON-RPC client), spv as a peer feeds it (a started spv
// backend connected to a scripted peer on the loopback, which announces the txs its filter
// matched and sends them when asked), and the block path (rpc's getblock reader). /relay/pay
// goes through the relay itself (payment-driver).
import { createServer, type Server, type Socket } from 'node:net';
import { RpcMempoolWatch } from '@/lib/chain/rpc/mempool';
import { RpcRbfAncestry } from '@/lib/chain/rpc/ancestry';
import { TxAnnouncements } from '@/lib/chain/rpc/announcements';
import { txShape } from '@/lib/chain/rpc/answers';
import { rpcNode } from '@/lib/chain/rpc/node';
import { RpcError, RPC_CODES, koinuToRpc, type RpcCall, type RpcClient } from '@/lib/chain/rpc/client';
import { SpvBackend } from '@/lib/chain/spv/backend';
import { txFacts, type TxFacts } from '@/lib/chain/tx-facts';
import { REGTEST, decodeTx, fromHex } from '@/lib/doge';
import { FrameDecoder, decodeInv, encodeInv, encodeMessage, encodeVersion, INV_TX, NODE_BLOOM } from '@/lib/p2p/wire';
import { openTestDb } from './stores';
import { freePort } from './ports';
import { until } from './wait';

export type Intake = 'rpc-diff' | 'rpc-p2p' | 'spv';
export const INTAKES: Intake[] = ['rpc-diff', 'rpc-p2p', 'spv'];

/** Dogecoin Core's verbose form of a tx (getrawtransaction 1, getblock 2). */
function verbose(hex: string) {
  const d = decodeTx(hex, REGTEST);
  return {
    txid: d.txid,
    size: d.size,
    hex,
    vin: d.inputs.map((i) => ({ txid: i.prevTxid, vout: i.vout, scriptSig: { hex: i.scriptSig }, sequence: i.sequence })),
    vout: d.outputs.map((o) => ({ n: o.n, value: koinuToRpc(o.value), scriptPubKey: { hex: o.script } })),
  };
}

/** A JSON-RPC client answering from `pool` (txid → hex, the node's mempool) the calls the mempool paths make. */
function scriptedNode(pool: Map<string, string>): RpcClient {
  const ancestors = (txid: string, out = new Set<string>()): Set<string> => {
    for (const i of decodeTx(pool.get(txid)!, REGTEST).inputs) {
      if (pool.has(i.prevTxid) && !out.has(i.prevTxid)) {
        out.add(i.prevTxid);
        ancestors(i.prevTxid, out);
      }
    }
    return out;
  };
  const answer = (method: string, params: unknown[] = []): unknown => {
    const txid = String(params[0]);
    if (method === 'getrawmempool') return [...pool.keys()];
    // The mempool watch's cheap change check (lib/chain/rpc/mempool.ts) before it lists.
    if (method === 'getmempoolinfo') return { size: pool.size, bytes: 0, usage: 0 };
    if (method === 'getbestblockhash') return '00'.repeat(32);
    if (!pool.has(txid)) throw new RpcError(RPC_CODES.INVALID_ADDRESS_OR_KEY, 'Transaction not in mempool', method);
    if (method === 'getrawtransaction') return verbose(pool.get(txid)!);
    if (method === 'getmempoolancestors') return [...ancestors(txid)];
    throw new Error(`the scripted node does not answer ${method}`);
  };
  return {
    endpoint: 'scripted',
    call: async <T>(method: string, params?: unknown[]) => answer(method, params) as T,
    batch: async (calls: RpcCall[]) =>
      calls.map((c) => {
        try {
          return { ok: true as const, result: answer(c.method, c.params) };
        } catch (e) {
          return { ok: false as const, error: e as RpcError };
        }
      }),
  };
}

/**
 * The facts of `hex` as `path` builds them. `parents`: unconfirmed txs the node holds (hex); spv
 * is handed only those `filterSaw` (its filter matched them), as a peer would relay them.
 */
export async function intake(path: Intake, hex: string, parents: string[], filterSaw: boolean): Promise<TxFacts> {
  const txid = decodeTx(hex, REGTEST).txid;
  const pool = new Map([...parents, hex].map((h) => [decodeTx(h, REGTEST).txid, h]));
  if (path === 'spv') return spvIntake(filterSaw ? [...parents, hex] : [hex], txid);
  const node = rpcNode(scriptedNode(pool));
  const ancestry = new RpcRbfAncestry(node);
  if (path === 'rpc-diff') return (await new RpcMempoolWatch(node, undefined, ancestry).newTxs()).find((t) => t.txid === txid)!;
  const ann = new TxAnnouncements({ magic: REGTEST.magic, peer: '127.0.0.1:1', defaultPort: REGTEST.port }, (txs) => ancestry.facts(txs));
  (ann as unknown as { onTx(p: Uint8Array): void }).onTx(fromHex(hex));
  for (let i = 0; i < 100 && !ann.queue.has(txid); i++) await new Promise((r) => setImmediate(r));
  return ann.queue.drain().find((t) => t.txid === txid)!;
}

/** A tx as a block brings it (rpc's getblock reader): its facts, mined. */
export const minedFacts = (hex: string): TxFacts => txFacts(txShape(verbose(hex), 0).tx, 'mined');

/** The spv backend and the peer it is connected to, started once for the whole test. */
let spvPeer: Promise<{ spv: SpvBackend; server: Server; relay(hexes: string[]): void }> | null = null;

/**
 * A scripted peer: the handshake, empty answers to getheaders (nothing to sync), pongs, and the
 * txs it announced (inv) sent when the backend asks for them (getdata), as a peer relays the
 * mempool txs a bloom filter matched.
 */
async function startSpvPeer() {
  const port = await freePort();
  const txs = new Map<string, Uint8Array>();
  const socks = new Set<Socket>();
  const server = createServer((sock) => {
    socks.add(sock);
    sock.on('error', () => undefined);
    sock.on('close', () => socks.delete(sock));
    const dec = new FrameDecoder(REGTEST.magic);
    const send = (cmd: string, payload?: Uint8Array) => sock.write(encodeMessage(REGTEST.magic, cmd, payload));
    send(
      'version',
      encodeVersion({
        version: 70015,
        services: NODE_BLOOM,
        timestamp: 0n,
        nonce: 3n,
        userAgent: '/Shibetoshi:1.14.9/',
        startHeight: 0,
        relay: true,
      }),
    );
    send('verack');
    sock.on('data', (d) => {
      for (const f of dec.push(new Uint8Array(d))) {
        if (f.command === 'ping') send('pong', f.payload);
        if (f.command === 'getheaders') send('headers', new Uint8Array([0]));
        if (f.command === 'getdata')
          for (const i of decodeInv(f.payload)) if (i.type === INV_TX && txs.has(i.hash)) send('tx', txs.get(i.hash)!);
      }
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const db = await openTestDb();
  const spv = new SpvBackend({ network: REGTEST, peers: [`127.0.0.1:${port}`], checkpoint: null, db: async () => db });
  await spv.start();
  if (
    (await until(
      () => spv.peers(),
      (n) => n > 0,
      30_000,
      10,
    )) === 0
  )
    throw new Error('the spv backend did not connect to the scripted peer');
  const relay = (hexes: string[]) => {
    const inv = hexes.map((h) => ({ type: INV_TX, hash: decodeTx(h, REGTEST).txid }));
    for (const [i, h] of hexes.entries()) txs.set(inv[i]!.hash, fromHex(h));
    for (const sock of socks) sock.write(encodeMessage(REGTEST.magic, 'inv', encodeInv(inv)));
  };
  const stop = spv.stop.bind(spv);
  spv.stop = async () => {
    await stop();
    for (const sock of socks) sock.destroy();
    await new Promise((r) => server.close(r));
    await db.close();
  };
  return { spv, server, relay };
}

/** The facts spv builds for `txid` when the peer relays `hexes` (its parents first, when its filter matched them). */
async function spvIntake(hexes: string[], txid: string): Promise<TxFacts> {
  spvPeer ??= startSpvPeer();
  const { spv, relay } = await spvPeer;
  relay(hexes);
  const got: TxFacts[] = [];
  await until(
    async () => got.push(...(await spv.mempoolNewTxs())),
    () => got.some((t) => t.txid === txid),
    10_000,
    2,
  );
  return got.find((t) => t.txid === txid)!;
}

/** Stops the spv backend and its peer (once the test is done). */
export async function closeIntakes(): Promise<void> {
  if (spvPeer) await (await spvPeer).spv.stop();
  spvPeer = null;
}
