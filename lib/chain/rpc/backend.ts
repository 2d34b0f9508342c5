// The `rpc` chain backend: Dogecoin Core over JSON-RPC (docs/architecture.md#chain-backends). Full validation is the
// node's; this module only translates. It keeps no state and runs no loops: the chain worker
// polls tip()/blockHashAt()/block().
//
// Works without -txindex:
// - blocks come from `getblock <hash> 2` (transactions with details) plus
//   `getblockheader <hash> false` (the first 80 bytes: Dogecoin appends AuxPoW there);
// - inputs come from `gettxout` (UTXO set + mempool).
//
// Unreachability (connection refused, timeout, auth/HTTP failures, warm-up) surfaces as
// BackendUnavailableError from every method. Other RPC errors are RpcError and mean a bug or an
// unexpected node, except where a method documents a mapping (blockHashAt, inMempool, broadcast).
import { fromHex, hashToHex, isHex, sha256d } from '../../doge/bytes';
import type { NetworkName } from '../../doge/network';
import { parseTx, parseTxAt, txidOf, SEQUENCE_RBF_THRESHOLD } from '../../doge/tx';
import {
  BackendUnavailableError,
  type BlockSummary,
  type BlockTxSummary,
  type BroadcastResult,
  type ChainBackend,
  type InputLookup,
  type Outpoint,
  type TxInput,
  type TipInfo,
} from '../backend';
import {
  RPC_CODES,
  RpcError,
  RpcUnavailableError,
  createRpcClient,
  koinuFromRpc,
  type RpcBatchItem,
  type RpcCall,
  type RpcClient,
} from './client';
import { TxAnnouncements, type AnnouncementOptions } from './announcements';

export interface RpcBackendOptions {
  /** `http://user:pass@host:port` (DOGE_RPC_URL). */
  url: string;
  /** When set, start() checks that the node runs this chain (if the node is reachable). */
  network?: NetworkName;
  /** Per-call timeout, default 10 s. */
  timeoutMs?: number;
  /** Injected client (tests). Default: createRpcClient({ url, timeoutMs }). */
  client?: RpcClient;
  /** The same node's P2P listener, for its tx announcements (lib/chain/rpc/announcements.ts). */
  p2p?: AnnouncementOptions;
}

const ZERO_HASH = '0'.repeat(64);
/** Core's chain names (getblockchaininfo.chain) by our network names. */
const CORE_CHAIN: Record<NetworkName, string> = { mainnet: 'main', testnet: 'test', regtest: 'regtest' };
/** Outpoints looked up per batch request (Core runs one batch on one RPC thread). */
const LOOKUP_BATCH = 500;

// ---- response shape helpers (Core's JSON, amounts already exact strings) ----

type Json = Record<string, unknown>;

function obj(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TypeError(`unexpected RPC answer: ${what} is not an object`);
  return v as Json;
}
function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new TypeError(`unexpected RPC answer: ${what} is not an array`);
  return v;
}
function str(o: Json, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new TypeError(`unexpected RPC answer: ${what}.${key} is not a string`);
  return v;
}
function int(o: Json, key: string, what: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new TypeError(`unexpected RPC answer: ${what}.${key} is not an integer`);
  return v;
}
function hash(v: string, what: string): string {
  if (!isHex(v, 32)) throw new TypeError(`unexpected RPC answer: ${what} is not a 32-byte hex hash`);
  return v.toLowerCase();
}

/** Convert one verbose transaction (getblock verbosity 2) into the summary the worker uses. */
function txSummary(raw: unknown, i: number): { tx: BlockTxSummary; size: number } {
  const what = `tx[${i}]`;
  const t = obj(raw, what);
  const inputs: TxInput[] = [];
  let rbf = false;
  for (const [j, vin] of arr(t.vin, `${what}.vin`).entries()) {
    const v = obj(vin, `${what}.vin[${j}]`);
    if ('coinbase' in v) continue; // a coinbase input spends nothing
    // BIP125: an nSequence below 0xfffffffe signals replace-by-fee (SEQUENCE_RBF_THRESHOLD).
    if (typeof v.sequence === 'number' && v.sequence < SEQUENCE_RBF_THRESHOLD) rbf = true;
    const sig = v.scriptSig !== null && typeof v.scriptSig === 'object' ? (v.scriptSig as { hex?: unknown }).hex : undefined;
    inputs.push({
      txid: hash(str(v, 'txid', `${what}.vin[${j}]`), `${what}.vin[${j}].txid`), vout: int(v, 'vout', `${what}.vin[${j}]`),
      ...(typeof sig === 'string' && isHex(sig) ? { scriptSig: sig.toLowerCase() } : {}),
    });
  }
  const outputs = arr(t.vout, `${what}.vout`).map((vout, j) => {
    const o = obj(vout, `${what}.vout[${j}]`);
    return {
      n: int(o, 'n', `${what}.vout[${j}]`),
      value: koinuFromRpc(o.value),
      script: str(obj(o.scriptPubKey, `${what}.vout[${j}].scriptPubKey`), 'hex', `${what}.vout[${j}].scriptPubKey`).toLowerCase(),
    };
  });
  const hex = typeof t.hex === 'string' && isHex(t.hex) ? fromHex(t.hex) : undefined;
  return { tx: { txid: hash(str(t, 'txid', what), `${what}.txid`), inputs, outputs, signalsRbf: rbf, ...(hex ? { raw: hex } : {}) }, size: int(t, 'size', what) };
}

/** How many outputs a serialized transaction has (null if it does not decode). */
function outputCount(hex: unknown): number | null {
  if (typeof hex !== 'string' || !isHex(hex)) return null;
  try {
    // Witness data is accepted here only to count outputs: Litecoin's coinbases carry it.
    return parseTxAt(fromHex(hex), 0, { allowWitness: true }).tx.outputs.length;
  } catch {
    return null;
  }
}

/** Core prefixes reject reasons with the numeric reject code in some versions ("66: min relay fee not met"). */
function rejectReason(message: string): string {
  return message.replace(/^\d+:\s*/, '');
}

// Reject reasons, across Core versions: Dogecoin 1.14 says "Missing inputs", Core 0.21
// "bad-txns-inputs-missingorspent", 0.19/0.20 "missing-inputs". A failed replacement attempt
// (BIP125, Litecoin and newer Dogecoin) conflicts with a mempool tx: a double spend as well.
const DOUBLE_SPEND = /txn-mempool-conflict|bad-txns-spends-conflicting-tx|replacement/i;
const MISSING_INPUTS = /missing.?inputs|missingorspent|inputs-spent/i;
const ALREADY_KNOWN = /already in block ?chain|txn-already-in-mempool|txn-already-known/i;

export function createRpcBackend(opts: RpcBackendOptions): ChainBackend {
  const client = opts.client ?? createRpcClient({ url: opts.url, timeoutMs: opts.timeoutMs });
  /** Mempool txids mempoolNewTxs has already returned. */
  let mempoolSeen = new Set<string>();
  /** mempoolDropped: when each tx was first found missing (cleared when it is seen again). */
  const missingSince = new Map<string, number>();
  const announced = opts.p2p ? new TxAnnouncements(opts.p2p) : null;
  /** Hands over the txs the node announced, and keeps the getrawmempool diff from fetching them again. */
  const takeAnnounced = (): BlockTxSummary[] => {
    const txs = announced?.queue.drain() ?? [];
    for (const t of txs) mempoolSeen.add(t.txid);
    return txs;
  };

  /** Run an RPC operation; unreachability becomes BackendUnavailableError. */
  async function guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof RpcUnavailableError) throw new BackendUnavailableError(err.message, err);
      throw err;
    }
  }
  const call = <T>(method: string, ...params: unknown[]) => guard(() => client.call<T>(method, params));
  const batch = (calls: RpcCall[]) => guard(() => client.batch(calls));

  function itemResult(item: RpcBatchItem): unknown {
    if (!item.ok) throw item.error;
    return item.result;
  }

  async function lookupChunk(outpoints: Outpoint[]): Promise<InputLookup[]> {
    const first = await batch(outpoints.map((o) => ({ method: 'gettxout', params: [o.txid, o.vout, true] })));
    const results: (InputLookup | null)[] = first.map((item) => {
      const r = itemResult(item);
      if (r === null) return null;
      const o = obj(r, 'gettxout');
      return { state: 'unspent', value: koinuFromRpc(o.value), script: str(obj(o.scriptPubKey, 'gettxout.scriptPubKey'), 'hex', 'gettxout.scriptPubKey').toLowerCase() };
    });
    const unresolved = outpoints.map((o, i) => ({ o, i })).filter(({ i }) => results[i] === null);
    if (unresolved.length > 0) {
      // Spent or missing? Per outpoint, three probes in one batch:
      //  1. gettxout without the mempool: present => in the chain's UTXO set, spent by a mempool tx.
      //  2. getrawtransaction: the tx is in the mempool (or -txindex, or Dogecoin's deprecated
      //     fallback for txs with unspent outputs) => spent if vout < its output count.
      //  3. gettransaction (the node's wallet, if any and if single): same rule on its hex.
      // Otherwise 'missing'. Without -txindex a confirmed tx whose outputs are all spent looks
      // 'missing': Core keeps no index to find it. The relay refuses it either way (400
      // invalid_tx, the payment stays payable); only the reason text differs.
      const probes = await batch(
        unresolved.flatMap(({ o }) => [
          { method: 'gettxout', params: [o.txid, o.vout, false] },
          { method: 'getrawtransaction', params: [o.txid, true] },
          { method: 'gettransaction', params: [o.txid] },
        ]),
      );
      unresolved.forEach(({ o, i }, k) => {
        const [chain, raw, wallet] = probes.slice(3 * k, 3 * k + 3);
        let state: 'spent' | 'missing' = 'missing';
        if (chain.ok && chain.result !== null) state = 'spent';
        else if (raw.ok) {
          const vouts = arr(obj(raw.result, 'getrawtransaction').vout, 'getrawtransaction.vout').length;
          state = o.vout < vouts ? 'spent' : 'missing';
        } else if (wallet.ok) {
          const n = outputCount(obj(wallet.result, 'gettransaction').hex);
          state = n !== null && o.vout < n ? 'spent' : 'missing';
        }
        // Probe errors (-5 not found, -18/-19 no/ambiguous wallet, -32601 wallet disabled) are
        // all "not found here".
        results[i] = { state };
      });
    }
    return results as InputLookup[];
  }

  async function lookupInputs(outpoints: Outpoint[]): Promise<InputLookup[]> {
    const out: InputLookup[] = [];
    for (let i = 0; i < outpoints.length; i += LOOKUP_BATCH) out.push(...(await lookupChunk(outpoints.slice(i, i + LOOKUP_BATCH))));
    return out;
  }

  /** sendrawtransaction without a fee ceiling (the relay applies its own fee rule). */
  async function send(txHex: string): Promise<string> {
    try {
      // Core >= 0.19: maxfeerate (0 = no limit).
      return await client.call<string>('sendrawtransaction', [txHex, 0]);
    } catch (err) {
      // Dogecoin Core 1.14 takes `allowhighfees` (bool) and answers a number with -3.
      if (err instanceof RpcError && err.code === RPC_CODES.TYPE_ERROR) {
        return await client.call<string>('sendrawtransaction', [txHex, true]);
      }
      throw err;
    }
  }

  /** The txid of a hex tx we could not broadcast, when it decodes (Dogecoin txs are legacy). */
  function txidOfHex(txHex: string): string | null {
    try {
      parseTx(txHex);
      return txidOf(fromHex(txHex));
    } catch {
      return null;
    }
  }

  /**
   * Core says "missing or spent": ask which, so double spends are reported as such.
   * First, the tx may itself be confirmed with all its outputs spent (Core only answers "already
   * in block chain" while one of them is unspent): with -txindex, or when the node's wallet
   * knows the tx, that is found and reported as success. Otherwise it reads as a double spend.
   */
  async function classifyMissing(txHex: string, reason: string): Promise<BroadcastResult> {
    let inputs: Outpoint[];
    let txid: string;
    try {
      inputs = parseTx(txHex).inputs.map((i) => ({ txid: hashToHex(i.prevTxid), vout: i.vout }));
      txid = txidOf(fromHex(txHex));
    } catch {
      return { ok: false, code: 'missing_inputs', reason };
    }
    const known = await batch([
      { method: 'getrawtransaction', params: [txid, true] },
      { method: 'gettransaction', params: [txid] },
    ]);
    const confirmed = known.some((k) => k.ok && typeof obj(k.result, 'tx').confirmations === 'number' && (obj(k.result, 'tx').confirmations as number) > 0);
    if (confirmed) return { ok: true, txid };
    const states = await lookupInputs(inputs);
    const spentAt = states.findIndex((s) => s.state === 'spent');
    if (spentAt >= 0) {
      const o = inputs[spentAt];
      return { ok: false, code: 'double_spend', reason: `input ${o.txid}:${o.vout} is already spent (${reason})` };
    }
    return { ok: false, code: 'missing_inputs', reason };
  }

  return {
    name: 'rpc',
    canLookupInputs: true,

    async start() {
      announced?.start();
      if (!opts.network) return;
      let info: unknown;
      try {
        info = await client.call('getblockchaininfo');
      } catch (err) {
        if (err instanceof RpcUnavailableError) return; // down at boot: the worker retries later
        throw err;
      }
      const chain = str(obj(info, 'getblockchaininfo'), 'chain', 'getblockchaininfo');
      if (chain !== CORE_CHAIN[opts.network]) {
        throw new Error(`RPC node at ${client.endpoint} runs chain "${chain}", but DOGE_NETWORK is ${opts.network}`);
      }
    },

    async stop() {
      announced?.stop();
    },

    ...(announced ? {
      onMempoolTx: (wake: () => void) => announced.queue.onPush(wake),
      takePushedTxs: takeAnnounced,
    } : {}),

    async tip(): Promise<TipInfo> {
      const best = hash(await call<string>('getbestblockhash'), 'getbestblockhash');
      const header = obj(await call('getblockheader', best, true), 'getblockheader');
      return { hash: best, height: int(header, 'height', 'getblockheader') };
    },

    async blockHashAt(height: number): Promise<string | null> {
      if (!Number.isSafeInteger(height) || height < 0) throw new RangeError(`invalid block height ${height}`);
      try {
        return hash(await call<string>('getblockhash', height), 'getblockhash');
      } catch (err) {
        // -8 "Block height out of range"
        if (err instanceof RpcError && err.code === RPC_CODES.INVALID_PARAMETER) return null;
        throw err;
      }
    },

    async block(blockHash: string): Promise<BlockSummary> {
      if (!isHex(blockHash, 32)) throw new TypeError('block hash must be 32-byte hex');
      const [blockItem, headerItem] = await batch([
        { method: 'getblock', params: [blockHash, 2] },
        { method: 'getblockheader', params: [blockHash, false] },
      ]);
      const b = obj(itemResult(blockItem), 'getblock');
      const headerHex = itemResult(headerItem);
      // Dogecoin serializes AuxPoW after the 80-byte header; Litecoin has none.
      if (typeof headerHex !== 'string' || headerHex.length < 160 || !isHex(headerHex.slice(0, 160))) {
        throw new TypeError('unexpected RPC answer: getblockheader is not a serialized header');
      }
      const header = fromHex(headerHex.slice(0, 160));
      const h = hash(str(b, 'hash', 'getblock'), 'getblock.hash');
      if (hashToHex(sha256d(header)) !== h) throw new Error(`header from getblockheader does not hash to ${h}`);
      const txs = arr(b.tx, 'getblock.tx').map(txSummary);
      return {
        hash: h,
        prevHash: typeof b.previousblockhash === 'string' ? hash(b.previousblockhash, 'getblock.previousblockhash') : ZERO_HASH,
        height: int(b, 'height', 'getblock'),
        time: int(b, 'time', 'getblock'),
        header,
        size: int(b, 'size', 'getblock'),
        txCount: txs.length,
        totalTxSize: txs.reduce((sum, t) => sum + t.size, 0),
        txs: txs.map((t) => t.tx),
      };
    },

    lookupInputs,

    async broadcast(txHex: string): Promise<BroadcastResult> {
      if (typeof txHex !== 'string' || txHex.length === 0 || !isHex(txHex)) {
        return { ok: false, code: 'rejected', reason: 'transaction is not hex' };
      }
      try {
        const txid = await guard(() => send(txHex));
        return { ok: true, txid: hash(txid, 'sendrawtransaction') };
      } catch (err) {
        if (!(err instanceof RpcError)) throw err;
        const reason = rejectReason(err.message);
        if (err.code === RPC_CODES.VERIFY_ALREADY_IN_CHAIN || ALREADY_KNOWN.test(reason)) {
          const txid = txidOfHex(txHex);
          if (txid) return { ok: true, txid };
          return { ok: false, code: 'already_known', reason };
        }
        if (DOUBLE_SPEND.test(reason)) return { ok: false, code: 'double_spend', reason };
        if (MISSING_INPUTS.test(reason)) return classifyMissing(txHex, reason);
        return { ok: false, code: 'rejected', reason };
      }
    },

    async inMempool(txid: string): Promise<boolean> {
      try {
        await call('getmempoolentry', txid);
        return true;
      } catch (err) {
        // -5 "Transaction not in mempool"; -8 for a malformed txid.
        if (err instanceof RpcError && (err.code === RPC_CODES.INVALID_ADDRESS_OR_KEY || err.code === RPC_CODES.INVALID_PARAMETER)) return false;
        throw err;
      }
    },

    async mempoolNewTxs(): Promise<BlockTxSummary[]> {
      const pushed = takeAnnounced();
      // Diff getrawmempool against the previous call: only the new txids are fetched.
      const ids = arr(await call('getrawmempool'), 'getrawmempool').map((t, i) => hash(String(t), `getrawmempool[${i}]`));
      const fresh = ids.filter((t) => !mempoolSeen.has(t));
      const out: BlockTxSummary[] = [];
      const got = new Set<string>();
      for (let i = 0; i < fresh.length; i += 200) {
        const items = await batch(fresh.slice(i, i + 200).map((t) => ({ method: 'getrawtransaction', params: [t, true] })));
        items.forEach((item, j) => {
          // A tx that left the mempool meanwhile: skipped (a block shows it if it was mined).
          if (!item.ok) return;
          out.push(txSummary(item.result, j).tx);
          got.add(fresh[i + j]);
        });
      }
      mempoolSeen = new Set(ids.filter((t) => mempoolSeen.has(t) || got.has(t)));
      return [...pushed, ...out];
    },

    async mempoolDropped(txs: { txid: string; inputs: Outpoint[] }[], processedTip: string, graceMs = 3_000): Promise<string[]> {
      const pool = new Set(arr(await call('getrawmempool'), 'getrawmempool').map((t) => String(t)));
      // Asked after the mempool: if the best block is still the one the worker processed, a tx
      // absent from that mempool was neither there nor in an unprocessed block.
      const best = String(await call('getbestblockhash'));
      const now = Date.now();
      const asked = new Set(txs.map((t) => t.txid));
      for (const t of [...missingSince.keys()]) if (!asked.has(t) || pool.has(t)) missingSince.delete(t);
      if (best !== processedTip) return [];
      const gone: { txid: string; inputs: Outpoint[] }[] = [];
      for (const t of txs) {
        if (pool.has(t.txid)) continue;
        const since = missingSince.get(t.txid);
        if (since === undefined) missingSince.set(t.txid, now);
        else if (now - since >= graceMs) gone.push(t);
      }
      const dropped: string[] = [];
      for (const t of gone) {
        // Replaced: an input is spent by a mempool tx (it is in the chain's UTXO set or its tx is
        // in the mempool, yet the mempool-aware view has it spent). A parent that is itself gone
        // (only -txindex or the wallet remember it) is no conflict.
        const probes = t.inputs.length ? await batch(t.inputs.flatMap((o) => [
          { method: 'gettxout', params: [o.txid, o.vout, true] },
          { method: 'gettxout', params: [o.txid, o.vout, false] },
        ])) : [];
        const replaced = t.inputs.some((o, k) => {
          const withPool = probes[2 * k]!;
          const chainOnly = probes[2 * k + 1]!;
          const spentInPool = withPool.ok && withPool.result === null;
          return spentInPool && ((chainOnly.ok && chainOnly.result !== null) || pool.has(o.txid));
        });
        missingSince.delete(t.txid);
        if (!replaced) dropped.push(t.txid);
      }
      return dropped;
    },

    async peers(): Promise<number> {
      await call('getnetworkinfo');
      return 1;
    },
  };
}
