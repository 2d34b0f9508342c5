// Positive acceptance for the spv node's broadcasts (docs/node.md#the-lightweight-node-chain_backendspv): a tx counts as accepted only when a peer shows that it holds it in its mempool. Peers
// answer a BIP35 `mempool` request with an `inv` of the mempool txs their filter matches, and the
// filter matches the tx once its txid is in it (BIP37 tests the txid first). The absence of a
// `reject` proves nothing: Dogecoin Core keeps a tx with unknown inputs as an orphan and says
// nothing, and Core 0.20+ sends no `reject` at all.
//
// A peer answers `mempool` at its next inventory "trickle", a Poisson timer of mean 5 s per
// inbound connection. With one peer that is too slow for a 10 s answer often enough, so a
// broadcast also opens a few short-lived probe connections to the peers it announced to: each
// has its own timer, and the first trickle among them answers.
//
// A double spend: Dogecoin Core refuses a tx whose input a mempool tx already spends with
// `txn-mempool-conflict`, an internal reject code (258) it does not send over P2P. So the probe's
// filter also holds the tx's input outpoints: the peer's mempool then lists the tx that spends
// one of them, the probe fetches it (getdata) and, when it spends one of our inputs, reports the
// conflict with the txid that holds it.
import { randomInt } from 'node:crypto';
import { hashToHex, hexToHash, sha256d, parseTx } from '../../doge';
import {
  BloomFilter,
  BLOOM_UPDATE_NONE,
  Peer,
  INV_TX,
  decodeInv,
  decodeReject,
  encodeFilterAdd,
  encodeFilterLoad,
  encodeInv,
} from '../../p2p';
import { outpointBytes } from './watch';
import { BackendUnavailableError, type BroadcastResult } from '../backend';

export type RejectCode = Exclude<BroadcastResult, { ok: true }>['code'];

/** The BroadcastResult code for a peer's reject reason (Dogecoin Core's and Bitcoin Core's wordings). */
export function rejectCode(reason: string): RejectCode {
  if (/missing|orphan|inputs-missingorspent/i.test(reason)) return 'missing_inputs';
  if (/conflict|double|spent/i.test(reason)) return 'double_spend';
  if (/already/i.test(reason)) return 'already_known';
  return 'rejected';
}

/** A filterload payload that matches a txid and the txs spending the given outpoints. */
export function txFilterLoad(txid: string, inputs: readonly { txid: string; vout: number }[] = []): Uint8Array {
  const f = new BloomFilter(Math.max(10, 2 * (inputs.length + 1)), 0.000001, randomInt(0, 0x7fffffff), BLOOM_UPDATE_NONE);
  f.insert(hexToHash(txid));
  for (const i of inputs) f.insert(outpointBytes(i.txid, i.vout));
  return encodeFilterLoad(f);
}

/** The input outpoints of a raw tx. */
export function inputsOf(raw: Uint8Array): { txid: string; vout: number }[] {
  return parseTx(raw).inputs.map((i) => ({ txid: hashToHex(i.prevTxid), vout: i.vout }));
}

export interface ProbeOptions {
  host: string;
  port: number;
  magic: string;
  txid: string;
  /** The tx's input outpoints: a mempool tx spending one of them is a double spend. */
  inputs: readonly { txid: string; vout: number }[];
  startHeight: () => number;
  /** The peer announced the tx (its mempool holds it). */
  onSeen: () => void;
  /** The peer rejected the tx on this connection (it never gets the tx here: for completeness). */
  onReject: (reason: string) => void;
  /** Another tx in the peer's mempool spends one of the inputs. */
  onConflict: (reason: string) => void;
  /** How often `mempool` is asked again (a trickle that ran before the tx entered the mempool answered without it). */
  repeatMs?: number;
}

/**
 * A short-lived extra connection that asks a peer's mempool for one txid until close(). Closing
 * is the caller's job (it closes every probe once the broadcast is decided).
 */
export function openMempoolProbe(o: ProbeOptions): { close(): void } {
  const peer = new Peer({ host: o.host, port: o.port, magic: o.magic, startHeight: o.startHeight, userAgent: '/counter-spv:0.1/' });
  let timer: ReturnType<typeof setInterval> | null = null;
  const ask = () => peer.send('mempool');
  const ours = new Set(o.inputs.map((i) => `${i.txid}:${i.vout}`));
  const fetched = new Set<string>();
  peer.on('ready', () => {
    if (!peer.hasBloom) return peer.close('peer serves no bloom filters');
    peer.send('filterload', txFilterLoad(o.txid, o.inputs));
    ask();
    timer = setInterval(ask, o.repeatMs ?? 1_000);
  });
  peer.on('message', (command, payload) => {
    try {
      if (command === 'inv') {
        const txs = decodeInv(payload).filter((i) => i.type === INV_TX);
        if (txs.some((i) => i.hash === o.txid)) return o.onSeen();
        // Others match through our inputs (or are false positives): fetch them to see.
        const fresh = txs.filter((i) => !fetched.has(i.hash)).slice(0, 100);
        for (const i of fresh) fetched.add(i.hash);
        if (fresh.length) peer.send('getdata', encodeInv(fresh));
      } else if (command === 'tx') {
        const other = hashToHex(sha256d(payload));
        if (other === o.txid) return o.onSeen();
        const hit = inputsOf(payload).find((i) => ours.has(`${i.txid}:${i.vout}`));
        if (hit) o.onConflict(`txn-mempool-conflict: input ${hit.txid}:${hit.vout} is already spent by ${other} in the peer's mempool`);
      } else if (command === 'reject') {
        const r = decodeReject(payload);
        if (r.hash === o.txid) o.onReject(`${r.reason} (code ${r.code})`);
      }
    } catch {
      peer.close('undecodable message', true);
    }
  });
  peer.on('close', () => {
    if (timer) clearInterval(timer);
    timer = null;
  });
  peer.connect();
  return {
    close() {
      if (timer) clearInterval(timer);
      peer.close('probe done');
    },
  };
}

/** A tx the node announced: served on getdata; `seen` once a peer showed it in its mempool. */
export interface Outgoing {
  raw: Uint8Array;
  at: number;
  /** Peers (host:port) that asked for it with getdata. */
  requestedBy: Set<string>;
  /** A peer's reject for it, or a conflicting mempool tx. */
  reject: string | null;
  conflict: string | null;
  seen: boolean;
  /** Wakes the waiting broadcast (set while one waits). */
  wake: () => void;
}

export function newOutgoing(raw: Uint8Array): Outgoing {
  return { raw, at: Date.now(), requestedBy: new Set(), reject: null, conflict: null, seen: false, wake: () => {} };
}

export interface AnnounceContext {
  magic: string;
  /** The pool's ready peers (read again while waiting: peers come and go). */
  peers: () => Peer[];
  /** Peers with a filter of ours loaded (filteradd and mempool need one). */
  filtered: WeakSet<Peer>;
  startHeight: () => number;
  deadline: number;
  /** Evidence channels wanted: probe connections make up for few peers (at least one probe, for conflicts). */
  channels: number;
}

const sleepOrWake = (o: Outgoing, ms: number) =>
  new Promise<void>((r) => {
    const t = setTimeout(r, ms);
    o.wake = () => {
      clearTimeout(t);
      r();
    };
  });

/**
 * Announce a tx (already registered as `o`, so getdata is served) and wait for the outcome. The
 * node's message handlers set o.seen (the tx in an inv) and o.reject; the probes set o.seen and
 * o.conflict.
 */
export async function announceAndAwait(ctx: AnnounceContext, txid: string, o: Outgoing): Promise<BroadcastResult> {
  const started = Date.now();
  let inputs: { txid: string; vout: number }[] = [];
  try {
    inputs = inputsOf(o.raw);
  } catch {
    /* the relay decoded it already; a broadcast of garbage just finds no conflicts */
  }
  const peers = ctx.peers();
  const bloom = peers.filter((p) => p.hasBloom);
  for (const p of bloom) {
    // The filter must match the tx for `mempool` to list it.
    if (ctx.filtered.has(p)) p.send('filteradd', encodeFilterAdd(hexToHash(txid)));
    else {
      p.send('filterload', txFilterLoad(txid));
      ctx.filtered.add(p);
    }
  }
  for (const p of peers) p.send('inv', encodeInv([{ type: INV_TX, hash: txid }]));
  const probes: { close(): void }[] = [];
  const want = Math.max(1, ctx.channels - bloom.length);
  for (let i = 0; i < want && bloom.length; i++) {
    const p = bloom[i % bloom.length]!;
    probes.push(
      openMempoolProbe({
        host: p.opts.host,
        port: p.opts.port,
        magic: ctx.magic,
        txid,
        inputs,
        startHeight: ctx.startHeight,
        onSeen: () => {
          o.seen = true;
          o.wake();
        },
        onReject: (reason) => {
          o.reject ??= reason;
          o.wake();
        },
        onConflict: (reason) => {
          o.conflict ??= reason;
          o.wake();
        },
      }),
    );
  }
  try {
    let asked = 0;
    while (Date.now() < ctx.deadline) {
      if (o.seen) return { ok: true, txid };
      if (o.reject !== null && rejectCode(o.reject) !== 'already_known') return { ok: false, code: rejectCode(o.reject), reason: o.reject };
      if (o.conflict !== null) return { ok: false, code: 'double_spend', reason: o.conflict };
      if (Date.now() - asked >= 1_000) {
        // Again each second: a trickle that ran before the tx entered the mempool answered without it.
        for (const p of ctx.peers()) if (ctx.filtered.has(p)) p.send('mempool');
        asked = Date.now();
      }
      await sleepOrWake(o, Math.min(200, Math.max(1, ctx.deadline - Date.now())));
    }
    if (o.reject !== null) return { ok: false, code: 'already_known', reason: o.reject };
    const took = o.requestedBy.size ? `${o.requestedBy.size} peer(s) took it` : 'no peer asked for it';
    throw new BackendUnavailableError(
      `no peer showed tx ${txid} in its mempool within ${Math.round((Date.now() - started) / 1000)} s (${took})`,
    );
  } finally {
    o.wake = () => {};
    for (const p of probes) p.close();
  }
}
