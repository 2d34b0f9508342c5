// The spv node's header chain: validates `headers` batches (linkage, proof of work with AuxPoW,
// checkpoints), keeps the most-work chain, and persists every accepted header into chain_header
// (batched, real cumulative chainwork, in_best flags flipped atomically on a reorg). A recent
// window lives in memory; older entries are read back from the table when needed.
import type { Db } from '../../db';
import { checkHeader, headerWork, type HeaderEntry, type Network } from '../../doge';

export interface HeaderNode {
  hash: string;
  prevHash: string;
  height: number;
  work: bigint; // cumulative
  bits: number;
  time: number;
  raw: Uint8Array | null; // null for the root (checkpoint / genesis) when not stored
}

export class HeaderRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeaderRejected';
  }
}

export interface AcceptResult {
  added: number;
  /** The best tip changed. */
  advanced: boolean;
  /** Blocks of the old best chain that left it (a reorg), newest first. */
  disconnected: number;
  /** Hash of the last header in the batch, for the next getheaders. */
  last: string | null;
}

const ZERO = '0'.repeat(64);
const WINDOW = 5000;

export class HeaderChain {
  private nodes = new Map<string, HeaderNode>();
  private best: HeaderNode;
  private root: HeaderNode;
  private readonly checkpoints: Map<number, string>;

  constructor(
    private readonly db: Db,
    private readonly network: Network,
    checkpoint: { height: number; hash: string } | null,
  ) {
    const cp = checkpoint ? fromConfig(network, checkpoint) : newestCheckpoint(network);
    this.root = { hash: cp.hash, prevHash: ZERO, height: cp.height, work: cp.work, bits: cp.bits, time: cp.time, raw: null };
    this.best = this.root;
    this.nodes.set(this.root.hash, this.root);
    this.checkpoints = new Map(network.checkpoints.map((c) => [c.height, c.hash]));
  }

  get tip(): HeaderNode {
    return this.best;
  }
  get rootHeight(): number {
    return this.root.height;
  }

  /** Resume from chain_header: the stored best chain's recent window becomes the in-memory index. */
  async load(): Promise<void> {
    const rows = await this.db.query<{
      hash: string;
      prev_hash: string;
      height: number;
      chainwork: string;
      header: Uint8Array;
      time: number;
    }>(
      `SELECT hash, prev_hash, height, chainwork::text AS chainwork, header, time FROM chain_header
        WHERE in_best AND height >= $1 ORDER BY height DESC LIMIT ${WINDOW}`,
      [this.root.height],
    );
    for (const r of rows.reverse()) {
      const raw = new Uint8Array(r.header);
      const n: HeaderNode = {
        hash: r.hash,
        prevHash: r.prev_hash,
        height: r.height,
        work: BigInt(r.chainwork),
        bits: bitsOf(raw),
        time: r.time,
        raw,
      };
      this.nodes.set(n.hash, n);
      if (n.work > this.best.work || this.best === this.root) this.best = n;
    }
  }

  async get(hash: string): Promise<HeaderNode | null> {
    const m = this.nodes.get(hash);
    if (m) return m;
    const rows = await this.db.query<{
      hash: string;
      prev_hash: string;
      height: number;
      chainwork: string;
      header: Uint8Array;
      time: number;
    }>(`SELECT hash, prev_hash, height, chainwork::text AS chainwork, header, time FROM chain_header WHERE hash = $1`, [hash]);
    const r = rows[0];
    if (!r) return null;
    const raw = new Uint8Array(r.header);
    return { hash: r.hash, prevHash: r.prev_hash, height: r.height, work: BigInt(r.chainwork), bits: bitsOf(raw), time: r.time, raw };
  }

  /** Best-chain hash at a height (memory window, then the table). */
  async hashAt(height: number): Promise<string | null> {
    if (height > this.best.height || height < this.root.height) return null;
    if (height === this.root.height) return this.root.hash;
    let n: HeaderNode | undefined = this.best;
    while (n && n.height > height && this.best.height - n.height < 64) n = this.nodes.get(n.prevHash);
    if (n && n.height === height) return n.hash;
    const rows = await this.db.query<{ hash: string }>(`SELECT hash FROM chain_header WHERE in_best AND height = $1 LIMIT 1`, [height]);
    return rows[0]?.hash ?? null;
  }

  /** Block locator: dense for the last 10, then doubling steps, ending with the root. */
  async locator(): Promise<string[]> {
    const out: string[] = [];
    let step = 1;
    let h = this.best.height;
    while (h > this.root.height) {
      const hash = await this.hashAt(h);
      if (hash) out.push(hash);
      if (out.length >= 10) step *= 2;
      h -= step;
    }
    out.push(this.root.hash);
    return out;
  }

  /**
   * Validate and store a batch of headers (a `headers` message). Throws HeaderRejected (the peer
   * sent invalid data: ban it). Returns added: 0 when the batch does not connect to anything known.
   */
  async accept(entries: readonly HeaderEntry[]): Promise<AcceptResult> {
    const none: AcceptResult = { added: 0, advanced: false, disconnected: 0, last: entries.at(-1)?.header.hash ?? null };
    if (!entries.length) return none;
    let prev = await this.get(entries[0]!.header.prevHash);
    if (!prev) return none;
    const fresh: HeaderNode[] = [];
    for (const e of entries) {
      const h = e.header;
      if (h.prevHash !== prev.hash) throw new HeaderRejected(`header ${h.hash} does not link to ${prev.hash}`);
      const known = this.nodes.get(h.hash);
      if (known) {
        prev = known;
        continue;
      }
      const height = prev.height + 1;
      const cp = this.checkpoints.get(height);
      if (cp && cp !== h.hash) throw new HeaderRejected(`header at checkpoint height ${height} is ${h.hash}, expected ${cp}`);
      try {
        checkHeader(e, this.network, { height });
      } catch (err) {
        throw new HeaderRejected(`header ${h.hash} at ${height}: ${(err as Error).message}`);
      }
      const work = headerWork(h.bits);
      if (work === 0n) throw new HeaderRejected(`header ${h.hash} has an invalid target`);
      const n: HeaderNode = { hash: h.hash, prevHash: h.prevHash, height, work: prev.work + work, bits: h.bits, time: h.time, raw: h.raw };
      fresh.push(n);
      prev = n;
    }
    if (!fresh.length) return { ...none, added: 0 };
    const candidate = fresh.at(-1)!;
    const newBranch: HeaderNode[] = [];
    const oldBranch: string[] = [];
    const advanced = candidate.work > this.best.work;
    if (advanced) {
      // Walk both tips back to the fork.
      let a: HeaderNode | null = candidate;
      let b: HeaderNode | null = this.best;
      const freshByHash = new Map(fresh.map((f) => [f.hash, f]));
      const lookup = async (hash: string) => freshByHash.get(hash) ?? (await this.get(hash));
      while (a && b && a.hash !== b.hash) {
        if (a.height >= b.height) {
          newBranch.push(a);
          a = await lookup(a.prevHash);
        } else {
          oldBranch.push(b.hash);
          b = await lookup(b.prevHash);
        }
      }
      if (!a || !b) throw new HeaderRejected('reorg below the checkpoint');
    }
    const inBest = new Set(newBranch.map((n) => n.hash));
    await this.persist(
      fresh,
      inBest,
      oldBranch,
      newBranch.filter((n) => !fresh.includes(n)).map((n) => n.hash),
    );
    for (const n of fresh) this.nodes.set(n.hash, n);
    if (advanced) this.best = candidate;
    this.prune();
    return { added: fresh.length, advanced, disconnected: oldBranch.length, last: entries.at(-1)!.header.hash };
  }

  /**
   * One transaction, in an order the unique index on the best chain's heights
   * (chain_header_best_height_key: one in_best row per height) accepts at every statement: the
   * old branch leaves the best chain first, then the fresh headers are written, then the
   * stored part of the new branch joins it. (Writing the fresh ones first made a reorg whose new
   * branch came in one `headers` message collide with the old branch's heights: the batch was
   * refused, again on every retry, and the node stopped following the chain.) A header sent
   * again that is already stored (older than the memory window) keeps its in_best flag unless
   * this reorg takes it off.
   */
  private async persist(fresh: HeaderNode[], inBest: Set<string>, off: string[], on: string[]): Promise<void> {
    const ops = [];
    const flip = (hashes: string[], value: boolean) => {
      for (let i = 0; i < hashes.length; i += 1000) {
        const c = hashes.slice(i, i + 1000);
        ops.push(
          this.db.prisma.$executeRawUnsafe(
            `UPDATE chain_header SET in_best = ${value} WHERE hash IN (${c.map((_, j) => `$${j + 1}`).join(',')})`,
            ...c,
          ),
        );
      }
    };
    flip(off, false);
    for (let i = 0; i < fresh.length; i += 1000) {
      const chunk = fresh.slice(i, i + 1000);
      const params: unknown[] = [];
      const values = chunk.map((n) => {
        params.push(n.hash, n.height, n.prevHash, n.work.toString(), Buffer.from(n.raw!), n.time, inBest.has(n.hash));
        const b = params.length - 6;
        return `($${b}, $${b + 1}, $${b + 2}, $${b + 3}::numeric, $${b + 4}, $${b + 5}, $${b + 6})`;
      });
      ops.push(
        this.db.prisma.$executeRawUnsafe(
          `INSERT INTO chain_header (hash, height, prev_hash, chainwork, header, time, in_best) VALUES ${values.join(',')}
         ON CONFLICT (hash) DO UPDATE SET in_best = EXCLUDED.in_best OR chain_header.in_best`,
          ...params,
        ),
      );
    }
    flip(on, true);
    await this.db.prisma.$transaction(ops);
  }

  private prune(): void {
    if (this.nodes.size < WINDOW * 2) return;
    const floor = this.best.height - WINDOW;
    for (const [k, n] of this.nodes) if (n.height < floor && n !== this.root) this.nodes.delete(k);
  }
}

function bitsOf(raw: Uint8Array): number {
  return new DataView(raw.buffer, raw.byteOffset + 72, 4).getUint32(0, true);
}

/** CHAIN_CHECKPOINT (height:hash): chainwork is then counted from it, unless it is a built-in one. */
function fromConfig(network: Network, c: { height: number; hash: string }) {
  const known = network.checkpoints.find((k) => k.height === c.height && k.hash === c.hash);
  if (known) return { height: known.height, hash: known.hash, work: headerWork(known.bits), bits: known.bits, time: known.time };
  if (c.height === 0 && c.hash === network.genesisHash) return newestGenesis(network);
  return { height: c.height, hash: c.hash, work: 0n, bits: 0, time: 0 };
}

function newestGenesis(network: Network) {
  return { height: 0, hash: network.genesisHash, work: headerWork(network.powLimitBits), bits: network.powLimitBits, time: 0 };
}

/** Else the newest built-in checkpoint, else genesis (regtest). */
function newestCheckpoint(network: Network): { height: number; hash: string; work: bigint; bits: number; time: number } {
  const cp = network.checkpoints.at(-1);
  if (cp) return { height: cp.height, hash: cp.hash, work: headerWork(cp.bits), bits: cp.bits, time: cp.time };
  return newestGenesis(network);
}
