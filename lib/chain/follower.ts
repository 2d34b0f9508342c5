// Follows the backend's best chain into the header store (chain_header), detecting reorgs by
// comparing stored best-chain hashes with the backend's. Calls back for each disconnected and
// connected block, oldest connect first. Generic over backends.
import type { Db } from '../db';
import { toHex, sha256d, headerWork } from '../doge';
import type { BlockSummary, ChainBackend } from './backend';
import { noteScannedFrom } from './rescan-state';

export interface FollowHooks {
  /** Runs inside no transaction; must be idempotent (a crash may replay a block). */
  connected(block: BlockSummary): Promise<void>;
  disconnected(hash: string, height: number): Promise<void>;
}

export interface FollowOptions {
  /** How far below the tip to start on an empty store. */
  initialDepth?: number;
  /** Deepest reorg we follow; deeper ones resync from the backend's chain. */
  maxReorgDepth?: number;
  /** Most blocks connected per call, so one call stays short. */
  maxBlocks?: number;
}

async function bestAt(db: Db, height: number): Promise<string | null> {
  const r = await db.prisma.chainHeader.findFirst({ where: { height, inBest: true }, select: { hash: true } });
  return r?.hash ?? null;
}

export async function storedTip(db: Db): Promise<{ height: number; hash: string } | null> {
  const r = await db.prisma.chainHeader.findFirst({
    where: { inBest: true },
    orderBy: { height: 'desc' },
    select: { height: true, hash: true },
  });
  return r ?? null;
}

export interface FollowResult {
  connected: number;
  disconnected: number;
  /** The processed tip: every block up to it went through the hooks. */
  tip: { height: number; hash: string };
  /** Nothing processed yet (spv: headers still syncing before the first block scan). */
  waiting?: boolean;
}

export async function followChain(db: Db, chain: ChainBackend, hooks: FollowHooks, opts: FollowOptions = {}): Promise<FollowResult> {
  if (chain.ownsHeaderStore) return followStore(db, chain, hooks, opts);
  const tip = await chain.tip();
  let ours = await storedTip(db);
  let disconnected = 0;
  if (ours && ours.hash === tip.hash) return { connected: 0, disconnected: 0, tip };

  // Find the fork point: the highest stored best-chain block the backend still has.
  let fork = -1;
  if (ours) {
    const maxDepth = opts.maxReorgDepth ?? 500;
    for (let h = Math.min(ours.height, tip.height); h >= Math.max(0, ours.height - maxDepth); h--) {
      const mine = await bestAt(db, h);
      if (mine && mine === (await chain.blockHashAt(h))) {
        fork = h;
        break;
      }
    }
    // Disconnect our blocks above the fork, newest first.
    for (let h = ours.height; h > fork; h--) {
      const hash = await bestAt(db, h);
      if (!hash) continue;
      await hooks.disconnected(hash, h); // first, so a failed hook is retried on the next tick
      await db.prisma.chainHeader.update({ where: { hash }, data: { inBest: false } });
      disconnected++;
    }
  } else {
    fork = Math.max(-1, tip.height - (opts.initialDepth ?? 6) - 1);
    // The wallet's history is complete from here on; older blocks need a birthday or a rescan (rescan.ts).
    await noteScannedFrom(db, fork + 1);
  }

  let connected = 0;
  const last = Math.min(tip.height, fork + (opts.maxBlocks ?? 500));
  for (let h = fork + 1; h <= last; h++) {
    const hash = await chain.blockHashAt(h);
    if (!hash) break;
    const b = await chain.block(hash);
    if (toHex(sha256d(b.header).reverse()) !== b.hash) throw new Error(`backend sent a header that does not hash to block ${b.hash}`);
    const prevWork = h > 0 ? await db.prisma.chainHeader.findUnique({ where: { hash: b.prevHash }, select: { chainwork: true } }) : null;
    // Real cumulative work from nBits (counted from the first stored block when the store starts above genesis).
    const bits = new DataView(b.header.buffer, b.header.byteOffset + 72, 4).getUint32(0, true);
    const chainwork = (BigInt(prevWork?.chainwork?.toFixed() ?? '0') + headerWork(bits)).toString();
    // The block joins the best chain only after its hooks ran: a crash or a failing hook in
    // between leaves it unprocessed, and the next tick connects it again (hooks are idempotent).
    await db.prisma.chainHeader.upsert({
      where: { hash: b.hash },
      update: { height: h },
      create: { hash: b.hash, height: h, prevHash: b.prevHash, chainwork, header: new Uint8Array(b.header), time: b.time, inBest: false },
    });
    await hooks.connected(b);
    await db.prisma.chainHeader.update({ where: { hash: b.hash }, data: { inBest: true } });
    connected++;
  }
  ours = await storedTip(db);
  return { connected, disconnected, tip: ours ?? tip };
}

// ---- backends that own chain_header (spv) ----

const CURSOR = 'processed_tip';

/**
 * The last block whose transactions went through the hooks: the spv cursor, or the stored best
 * chain's tip for the other backends. Null before the first block was processed.
 */
export async function processedTip(db: Db, chain: Pick<ChainBackend, 'ownsHeaderStore'>): Promise<{ height: number; hash: string } | null> {
  return chain.ownsHeaderStore ? readCursor(db) : storedTip(db);
}

async function readCursor(db: Db): Promise<{ height: number; hash: string } | null> {
  const r = await db.prisma.chainState.findUnique({ where: { key: CURSOR } });
  const m = r ? /^(\d+):([0-9a-f]{64})$/.exec(r.value) : null;
  return m ? { height: Number(m[1]), hash: m[2]! } : null;
}

async function writeCursor(db: Db, c: { height: number; hash: string }): Promise<void> {
  const value = `${c.height}:${c.hash}`;
  const now = new Date();
  await db.prisma.chainState.upsert({
    where: { key: CURSOR },
    update: { value, updatedAt: now },
    create: { key: CURSOR, value, updatedAt: now },
  });
}

/**
 * The backend already keeps the header chain (with its reorgs) in chain_header. The processed
 * cursor is the last block whose transactions went through the hooks. If it left the best
 * chain, walk its stored ancestors back to the best chain, disconnecting each; then fetch the
 * best chain's blocks above it in batches and connect them, oldest first. Block scanning starts
 * `initialDepth` below the tip once the headers are synced (the wallet's birthday).
 */
async function followStore(db: Db, chain: ChainBackend, hooks: FollowHooks, opts: FollowOptions): Promise<FollowResult> {
  await chain.refreshWatch?.();
  const tip = await chain.tip();
  let cursor = await readCursor(db);
  if (!cursor) {
    const st = chain.syncStatus?.();
    if (st && !st.synced) return { connected: 0, disconnected: 0, tip, waiting: true };
    const h = Math.max(0, tip.height - (opts.initialDepth ?? 6) - 1);
    const hash = h === tip.height ? tip.hash : await chain.blockHashAt(h);
    if (!hash) return { connected: 0, disconnected: 0, tip, waiting: true };
    cursor = { height: h, hash };
    await writeCursor(db, cursor);
    await noteScannedFrom(db, h + 1);
  }
  let disconnected = 0;
  for (let guard = 0; guard < 10_000; guard++) {
    const row: { inBest: boolean; prevHash: string; height: number } | null = await db.prisma.chainHeader.findUnique({
      where: { hash: cursor.hash },
      select: { inBest: true, prevHash: true, height: true },
    });
    if (!row || row.inBest) break;
    await hooks.disconnected(cursor.hash, cursor.height);
    disconnected++;
    cursor = { height: row.height - 1, hash: row.prevHash };
    await writeCursor(db, cursor);
  }
  let connected = 0;
  const last = Math.min(tip.height, cursor.height + (opts.maxBlocks ?? 500));
  if (last > cursor.height) {
    const rows = await db.prisma.chainHeader.findMany({
      where: { inBest: true, height: { gt: cursor.height, lte: last } },
      orderBy: { height: 'asc' },
      select: { hash: true, height: true, prevHash: true },
    });
    if (rows[0] && rows[0].prevHash !== cursor.hash) return { connected, disconnected, tip: cursor }; // store moved under us: next tick
    const batch = 250;
    for (let i = 0; i < rows.length; i += batch) {
      const part = rows.slice(i, i + batch);
      const blocks = chain.blocks ? await chain.blocks(part.map((r) => r.hash)) : await Promise.all(part.map((r) => chain.block(r.hash)));
      for (const b of blocks) {
        if (toHex(sha256d(b.header).reverse()) !== b.hash) throw new Error(`backend sent a header that does not hash to block ${b.hash}`);
        await hooks.connected(b);
        cursor = { height: b.height, hash: b.hash };
        await writeCursor(db, cursor);
        connected++;
      }
    }
  }
  return { connected, disconnected, tip: cursor };
}
