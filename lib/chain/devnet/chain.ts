// The devnet chain (docs/architecture.md#chain-backends): an in-process Dogecoin-format chain for the demo. Real
// legacy transactions and 80-byte headers (version 0x00620004: chain ID 0x62, no AuxPoW) with
// regtest's easy target (bits 0x207fffff) and a real scrypt proof of work for it.
// Accepted transactions are checked like a node would: decodable, no coinbase, every input
// unspent (mempool-aware, no double spends), P2PKH signatures valid, outputs standard (P2PKH,
// P2SH, one OP_RETURN <= 80 bytes; no dust), inputs >= outputs, minimum relay fee.
// Coinbase maturity is not enforced (the demo wallet spends its funding at once).
// Pure state machine: persistence and timers are backend.ts.
import {
  ByteWriter,
  concatBytes,
  hashToHex,
  sha256d,
  toHex,
  encodeBlock,
  makeHeader,
  merkleRoot,
  hashMeetsTarget,
  powHash,
  classifyScript,
  pushData,
  isCoinbase,
  parseTx,
  encodeTx,
  signalsRbf,
  type RawTx,
  parseBlock,
} from '../../doge';
import { shapeOfParsed, txFacts, type Parents } from '../tx-facts';
import type { BlockSummary, BlockTxSummary, BroadcastResult, InputLookup, Outpoint } from '../backend';
import { checkP2pkhSpend, p2pkhSpendCheck, type SigCheck } from './script';

export const DEVNET_BITS = 0x207fffff;
export const DEVNET_VERSION = 0x00620004;
const COIN = 100_000_000n;
export const DEVNET_SUBSIDY = 10_000n * COIN;
/** The demo wallet is topped up (10 × 1,000 DOGE in the next coinbase) below this balance. */
export const DEVNET_FUND_LOW = 1_000n * COIN;
const FUND_OUTPUTS = 10;
const FUND_EACH = 1_000n * COIN;
const MIN_RELAY_FEE_PER_KB = 100_000n; // 0.001 DOGE/kB
const HARD_DUST = 100_000n; // 0.001 DOGE

export interface DevnetTx {
  txid: string;
  raw: Uint8Array;
  tx: RawTx;
}

export interface DevnetBlock {
  hash: string;
  height: number;
  prevHash: string;
  time: number;
  header: Uint8Array;
  /** The serialised block. */
  raw: Uint8Array;
  size: number;
  txs: DevnetTx[];
}

interface Coin {
  value: bigint;
  script: Uint8Array;
  height: number; // -1 in the mempool
}

const key = (txid: string, vout: number) => `${txid}:${vout}`;
/** What a script verdict is about: an input of the tx and the script it spends. */
const verdictKey = (index: number, script: Uint8Array) => `${index}:${toHex(script)}`;
const ZERO32 = new Uint8Array(32);

function devnetTx(raw: Uint8Array): DevnetTx {
  return { raw, tx: parseTx(raw), txid: hashToHex(sha256d(raw)) };
}

export interface DevnetChainOptions {
  /** Receives each coinbase's subsidy and fees. */
  minerScript: Uint8Array;
  /** The demo wallet: funded whenever its balance falls below DEVNET_FUND_LOW. */
  fundScript: Uint8Array;
  /** The clock for block times (docs/architecture.md#time); default the wall clock. */
  now?: () => Date;
}

export class DevnetChain {
  readonly blocks: DevnetBlock[] = [];
  private readonly byHash = new Map<string, DevnetBlock>();
  /** Confirmed unspent outputs. */
  private readonly utxo = new Map<string, Coin>();
  /** Output counts of every known tx (chain and mempool): an outpoint exists iff vout < count. */
  private readonly known = new Map<string, number>();
  readonly mempool = new Map<string, DevnetTx & { fee: bigint }>();
  /** Outpoints spent by mempool txs → spending txid. */
  private readonly mempoolSpent = new Map<string, string>();

  constructor(private readonly opts: DevnetChainOptions) {}

  get tip(): DevnetBlock | undefined {
    return this.blocks[this.blocks.length - 1];
  }

  blockByHash(hash: string): DevnetBlock | undefined {
    return this.byHash.get(hash.toLowerCase());
  }

  /** The coin at an outpoint as the mempool sees it, or why there is none. */
  private view(o: Outpoint): Coin | 'spent' | 'missing' {
    const k = key(o.txid, o.vout);
    if (this.mempoolSpent.has(k)) return 'spent';
    const c = this.utxo.get(k);
    if (c) return c;
    const m = this.mempool.get(o.txid);
    if (m && o.vout < m.tx.outputs.length) return { value: m.tx.outputs[o.vout].value, script: m.tx.outputs[o.vout].script, height: -1 };
    const n = this.known.get(o.txid);
    return n !== undefined && o.vout < n ? 'spent' : 'missing';
  }

  lookup(o: Outpoint): InputLookup {
    const v = this.view(o);
    if (v === 'spent' || v === 'missing') return { state: v };
    return { state: 'unspent', value: v.value, script: toHex(v.script) };
  }

  /**
   * The script checks `accept` would run for a transaction's inputs as the chain stands now:
   * verdicts known without curve arithmetic, and the signature checks left to run (elsewhere,
   * e.g. on a worker). A verdict depends only on the tx, the input and the spent script, so it
   * stays true whatever happens to the chain meanwhile; `accept` still checks everything else
   * when it runs. Null when the tx does not decode (accept says why).
   */
  scriptChecks(
    raw: Uint8Array,
  ): { verdicts: Map<string, string | null>; checks: { key: string; index: number; check: SigCheck }[] } | null {
    let tx: RawTx;
    try {
      tx = parseTx(raw);
    } catch {
      return null;
    }
    const verdicts = new Map<string, string | null>();
    const checks: { key: string; index: number; check: SigCheck }[] = [];
    tx.inputs.forEach((inp, index) => {
      const coin = this.view({ txid: hashToHex(inp.prevTxid), vout: inp.vout });
      if (coin === 'spent' || coin === 'missing') return;
      const k = verdictKey(index, coin.script);
      const c = p2pkhSpendCheck(tx, index, coin.script);
      if (typeof c === 'string') verdicts.set(k, c);
      else checks.push({ key: k, index, check: c });
    });
    return { verdicts, checks };
  }

  /**
   * Validate and add a transaction to the mempool. Results mirror a node's answers.
   * `verdicts` (from scriptChecks, completed) saves rechecking those inputs' scripts.
   */
  accept(raw: Uint8Array, verdicts?: ReadonlyMap<string, string | null>): BroadcastResult {
    let t: DevnetTx;
    try {
      t = devnetTx(raw);
    } catch (e) {
      return { ok: false, code: 'rejected', reason: `TX decode failed: ${(e as Error).message}` };
    }
    if (this.mempool.has(t.txid)) return { ok: true, txid: t.txid };
    if (this.known.has(t.txid)) return { ok: true, txid: t.txid }; // already in the chain
    if (isCoinbase(t.tx)) return { ok: false, code: 'rejected', reason: 'coinbase' };
    const seen = new Set<string>();
    let inSum = 0n;
    for (const [i, inp] of t.tx.inputs.entries()) {
      const o = { txid: hashToHex(inp.prevTxid), vout: inp.vout };
      if (seen.has(key(o.txid, o.vout))) return { ok: false, code: 'rejected', reason: 'bad-txns-inputs-duplicate' };
      seen.add(key(o.txid, o.vout));
      const coin = this.view(o);
      if (coin === 'spent') return { ok: false, code: 'double_spend', reason: `input ${o.txid}:${o.vout} is already spent` };
      if (coin === 'missing') return { ok: false, code: 'missing_inputs', reason: `Missing inputs: ${o.txid}:${o.vout}` };
      const vk = verdicts && verdictKey(i, coin.script);
      const bad = vk && verdicts.has(vk) ? verdicts.get(vk)! : checkP2pkhSpend(t.tx, i, coin.script);
      if (bad) return { ok: false, code: 'rejected', reason: `mandatory-script-verify-flag-failed: ${bad}` };
      inSum += coin.value;
    }
    let outSum = 0n;
    let dataOutputs = 0;
    for (const [n, out] of t.tx.outputs.entries()) {
      const type = classifyScript(out.script).type;
      if (out.value < 0n) return { ok: false, code: 'rejected', reason: 'bad-txns-vout-negative' };
      if (type === 'nulldata') {
        if (++dataOutputs > 1) return { ok: false, code: 'rejected', reason: 'multi-op-return' };
        if (out.script.length > 83) return { ok: false, code: 'rejected', reason: 'scriptpubkey: OP_RETURN over 80 bytes' };
      } else if (type === 'p2pkh' || type === 'p2sh') {
        if (out.value < HARD_DUST) return { ok: false, code: 'rejected', reason: `dust: output ${n}` };
      } else return { ok: false, code: 'rejected', reason: `scriptpubkey: non-standard output ${n}` };
      outSum += out.value;
    }
    if (inSum < outSum) return { ok: false, code: 'rejected', reason: 'bad-txns-in-belowout' };
    const fee = inSum - outSum;
    if (fee * 1000n < MIN_RELAY_FEE_PER_KB * BigInt(raw.length)) return { ok: false, code: 'rejected', reason: 'min relay fee not met' };
    this.mempool.set(t.txid, { ...t, fee });
    for (const inp of t.tx.inputs) this.mempoolSpent.set(key(hashToHex(inp.prevTxid), inp.vout), t.txid);
    this.known.set(t.txid, t.tx.outputs.length);
    return { ok: true, txid: t.txid };
  }

  /** The demo wallet's balance as the mempool sees it. */
  balanceOf(script: Uint8Array): bigint {
    return this.coinsOf(script).reduce((s, c) => s + c.value, 0n);
  }

  /** Unspent outputs paying `script`, confirmed and unconfirmed, not spent in the mempool. */
  coinsOf(script: Uint8Array): { txid: string; vout: number; value: bigint; height: number }[] {
    const hex = toHex(script);
    const out: { txid: string; vout: number; value: bigint; height: number }[] = [];
    for (const [k, c] of this.utxo) {
      if (toHex(c.script) !== hex || this.mempoolSpent.has(k)) continue;
      const [txid, vout] = k.split(':');
      out.push({ txid, vout: Number(vout), value: c.value, height: c.height });
    }
    for (const m of this.mempool.values()) {
      m.tx.outputs.forEach((o, vout) => {
        if (toHex(o.script) === hex && !this.mempoolSpent.has(key(m.txid, vout)))
          out.push({ txid: m.txid, vout, value: o.value, height: -1 });
      });
    }
    return out;
  }

  /** Mine one block with the whole mempool, grinding the nonce until scrypt meets the target. */
  mine(): DevnetBlock {
    const prev = this.tip;
    const height = prev ? prev.height + 1 : 0;
    const txs = [...this.mempool.values()];
    const fees = txs.reduce((s, t) => s + t.fee, 0n);
    const outputs = [];
    if (this.balanceOf(this.opts.fundScript) < DEVNET_FUND_LOW) {
      for (let i = 0; i < FUND_OUTPUTS; i++) outputs.push({ value: FUND_EACH, script: this.opts.fundScript });
    }
    outputs.push({ value: DEVNET_SUBSIDY + fees, script: this.opts.minerScript });
    const heightBytes = new ByteWriter().u32le(height).finish();
    const time = Math.max(prev ? prev.time + 1 : 0, Math.floor((this.opts.now?.() ?? new Date()).getTime() / 1000));
    const coinbase: RawTx = {
      version: 1,
      inputs: [
        {
          prevTxid: ZERO32,
          vout: 0xffffffff,
          scriptSig: concatBytes(pushData(heightBytes), pushData(new TextEncoder().encode('counter devnet'))),
          sequence: 0xffffffff,
        },
      ],
      outputs,
      locktime: 0,
    };
    const all = [coinbase, ...txs.map((t) => t.tx)];
    const root = merkleRoot(all.map((t) => sha256d(encodeTx(t))));
    let nonce = 0;
    for (;;) {
      const header = makeHeader({
        version: DEVNET_VERSION,
        prevHash: prev?.hash ?? '0'.repeat(64),
        merkleRoot: hashToHex(root),
        time,
        bits: DEVNET_BITS,
        nonce,
      });
      if (hashMeetsTarget(powHash(header.raw), DEVNET_BITS)) {
        const raw = encodeBlock({ header }, all);
        this.connect(raw);
        return this.tip!;
      }
      nonce++;
    }
  }

  /** Connect a serialised block on top of the tip (mined here or replayed from disk). */
  connect(raw: Uint8Array): DevnetBlock {
    const b = parseBlock(raw);
    const h = b.entry.header;
    const prev = this.tip;
    if ((prev?.hash ?? '0'.repeat(64)) !== h.prevHash) throw new Error(`devnet block ${h.hash} does not extend the tip`);
    if (!hashMeetsTarget(powHash(h.raw), h.bits) || h.bits !== DEVNET_BITS)
      throw new Error(`devnet block ${h.hash} has no valid proof of work`);
    const height = prev ? prev.height + 1 : 0;
    const block: DevnetBlock = {
      hash: h.hash,
      height,
      prevHash: h.prevHash,
      time: h.time,
      header: h.raw,
      raw,
      size: raw.length,
      txs: b.txs.map((t) => ({ txid: t.txid, raw: t.raw, tx: t.tx })),
    };
    for (const t of block.txs) {
      if (!isCoinbase(t.tx)) for (const inp of t.tx.inputs) this.utxo.delete(key(hashToHex(inp.prevTxid), inp.vout));
      t.tx.outputs.forEach((o, n) => {
        if (classifyScript(o.script).type !== 'nulldata') this.utxo.set(key(t.txid, n), { value: o.value, script: o.script, height });
      });
      this.known.set(t.txid, t.tx.outputs.length);
      if (this.mempool.delete(t.txid)) for (const inp of t.tx.inputs) this.mempoolSpent.delete(key(hashToHex(inp.prevTxid), inp.vout));
    }
    this.blocks.push(block);
    this.byHash.set(block.hash, block);
    return block;
  }

  /**
   * Replaceable as Dogecoin Core 1.14 decides it: a mempool tx that signals BIP125, or whose
   * mempool parent is replaceable. A tx not in the mempool is mined (devnet knows its whole chain).
   */
  replaceable(txid: string, seen = new Set<string>()): boolean {
    const t = this.mempool.get(txid);
    if (!t || seen.has(txid)) return false;
    seen.add(txid);
    return signalsRbf(t.tx) || t.tx.inputs.some((i) => this.replaceable(hashToHex(i.prevTxid), seen));
  }

  summary(b: DevnetBlock): BlockSummary {
    return {
      hash: b.hash,
      prevHash: b.prevHash,
      height: b.height,
      time: b.time,
      header: b.header,
      size: b.size,
      txCount: b.txs.length,
      totalTxSize: b.txs.reduce((s, t) => s + t.raw.length, 0),
      txs: b.txs.map((t) => txSummary(t, 'mined')),
    };
  }
}

/** A tx as the chain worker sees it (blocks and the mempool): its facts (tx-facts.ts). */
export function txSummary(t: DevnetTx, parents: Parents): BlockTxSummary {
  return txFacts(shapeOfParsed(t.txid, t.tx, t.raw), parents);
}
