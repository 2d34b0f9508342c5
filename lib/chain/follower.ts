// Follows the backend's best chain into the header store (chain_header), detecting reorgs by
// comparing stored best-chain hashes with the backend's. Calls back for each disconnected and
// connected block, oldest connect first. Generic over backends.
import type { Db } from '../db/client';
import { toHex, sha256d } from '../doge';
import type { BlockSummary, ChainBackend } from './backend';

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
  const r = await db.prisma.chainHeader.findFirst({ where: { inBest: true }, orderBy: { height: 'desc' }, select: { height: true, hash: true } });
  return r ?? null;
}

export async function followChain(db: Db, chain: ChainBackend, hooks: FollowHooks, opts: FollowOptions = {}): Promise<{ connected: number; disconnected: number; tip: { height: number; hash: string } }> {
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
      await db.prisma.chainHeader.update({ where: { hash }, data: { inBest: false } });
      await hooks.disconnected(hash, h);
      disconnected++;
    }
  } else {
    fork = Math.max(-1, tip.height - (opts.initialDepth ?? 6) - 1);
  }

  let connected = 0;
  const last = Math.min(tip.height, fork + (opts.maxBlocks ?? 500));
  for (let h = fork + 1; h <= last; h++) {
    const hash = await chain.blockHashAt(h);
    if (!hash) break;
    const b = await chain.block(hash);
    if (toHex(sha256d(b.header).reverse()) !== b.hash) throw new Error(`backend sent a header that does not hash to block ${b.hash}`);
    const prevWork = h > 0 ? await db.prisma.chainHeader.findUnique({ where: { hash: b.prevHash }, select: { chainwork: true } }) : null;
    const chainwork = (BigInt(prevWork?.chainwork?.toFixed() ?? '0') + 1n).toString(); // relative work; spv stores real work
    await db.prisma.chainHeader.upsert({
      where: { hash: b.hash },
      update: { inBest: true, height: h },
      create: { hash: b.hash, height: h, prevHash: b.prevHash, chainwork, header: new Uint8Array(b.header), time: b.time, inBest: true },
    });
    await hooks.connected(b);
    connected++;
  }
  ours = await storedTip(db);
  return { connected, disconnected, tip: ours ?? tip };
}
