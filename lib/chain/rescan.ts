// The wallet's history (docs/node.md#the-wallets-history-birthday-and-rescan): a birthday (WALLET_BIRTHDAY or the back office) and the
// operator's rescan. The chain follower scans only the last few blocks at first start; a rescan
// walks the blocks from a height up to the follower's processed tip through the wallet tracker
// (filtered blocks on spv, full blocks on rpc and devnet), a batch per worker tick, while the
// follower keeps following new blocks. Its cursor is a chain_state row, so a restart resumes it.
//
// Idempotent: the tracker upserts outputs and txs by txid:vout and marks spends by outpoint, so a
// block scanned twice changes nothing. A rescan touches the wallet only, never payments (those
// are decided by the live follower): re-scanning cannot mark a sale paid twice, nor attribute
// old coins on a reused address to a new sale. The rescan chases the follower's tip (its target
// moves), so a spend that the follower met before the rescan found the output is recorded too.
import type { Db } from '../db';
import { type Network, sha256d, toHex } from '../doge';
import { log } from '../log';
import { BackendUnavailableError, type BlockSummary, type ChainBackend } from './backend';
import { birthdayHeight, parseBirthday, type Birthday } from './birthday';
import { processedTip } from './follower';
import { K, getState, noteScannedFrom, readRescan, setState, writeRescan, type RescanState } from './rescan-state';
import { trackBlockConnected } from './wallet-tracker';
import { syncWatchAddresses } from './watch-addresses';

/** A rescan or birthday the node cannot honour: a 400 (bad input) or 409 (not now), with why. */
export class RescanRefused extends Error {
  constructor(
    readonly code: 'invalid_request' | 'conflict',
    message: string,
  ) {
    super(message);
    this.name = 'RescanRefused';
  }
}

type Chain = Pick<ChainBackend, 'ownsHeaderStore' | 'blockHashAt' | 'block' | 'blocks'>;

/** Heights this backend can scan: spv from its first stored header (the checkpoint), the others from genesis. */
async function scanRange(db: Db, chain: Chain): Promise<{ low: number; high: number }> {
  const tip = await processedTip(db, chain);
  if (!tip) throw new RescanRefused('conflict', 'the node has not processed any block yet: try again once it is synced');
  if (!chain.ownsHeaderStore) return { low: 0, high: tip.height };
  const [r] = await db.query<{ low: number | null }>(`SELECT MIN(height) AS low FROM chain_header WHERE in_best`);
  return { low: Number(r?.low ?? 0), high: tip.height };
}

async function timeAt(db: Db, chain: Chain, height: number): Promise<number> {
  const row = await db.prisma.chainHeader.findFirst({ where: { height, inBest: true }, select: { time: true } });
  if (row) return row.time;
  const hash = await chain.blockHashAt(height);
  if (!hash) throw new BackendUnavailableError(`no block at height ${height}`);
  return (await chain.block(hash)).time;
}

export interface Resolved {
  birthday: Birthday;
  height: number;
  low: number;
  high: number;
  beforeLow: boolean;
}

/** Parses a height or date and maps it to a height on this node's chain. */
export async function resolveFrom(db: Db, chain: Chain, input: string | number): Promise<Resolved> {
  let b: Birthday;
  try {
    b = parseBirthday(input);
  } catch (e) {
    throw new RescanRefused('invalid_request', (e as Error).message);
  }
  const range = await scanRange(db, chain);
  const r = await birthdayHeight(b, { ...range, timeAt: (h) => timeAt(db, chain, h) });
  return { birthday: b, ...range, ...r };
}

function beforeLowMessage(r: Resolved): string {
  return (
    `${r.birthday.text} is before the first block this node stores (height ${r.low}, where its header sync starts): ` +
    'set CHAIN_CHECKPOINT to an older block to scan that far back'
  );
}

export async function startRescan(db: Db, from: number, target: number, reason: RescanState['reason']): Promise<RescanState> {
  const now = new Date().toISOString();
  const r: RescanState = {
    from,
    current: from - 1,
    target,
    reason,
    started_at: now,
    updated_at: now,
    finished_at: null,
    error: null,
    blocks: 0,
  };
  await writeRescan(db, r);
  log.info('wallet rescan started', { from, target, reason });
  return r;
}

/** The operator's rescan from a height or date (replaces a running one: rescans are idempotent). */
export async function requestRescan(db: Db, chain: Chain, input: string | number): Promise<RescanState> {
  const r = await resolveFrom(db, chain, input);
  if (r.beforeLow) throw new RescanRefused('invalid_request', beforeLowMessage(r));
  if (r.height > r.high)
    throw new RescanRefused(
      'invalid_request',
      `${r.birthday.text} is after the last block the node has processed (height ${r.high}): nothing to scan`,
    );
  return startRescan(db, r.height, r.high, 'operator');
}

/**
 * Sets (or clears, with null) the wallet's birthday from the back office, and starts scanning
 * from it at once when that is older than the history the wallet already has.
 */
export async function setBirthday(
  db: Db,
  chain: Chain,
  input: string | number | null,
): Promise<{ birthday: string | null; rescan: RescanState | null }> {
  if (input === null || input === '') {
    await setState(db, K.birthday, null);
    await setState(db, K.applied, null);
    return { birthday: null, rescan: null };
  }
  let b: Birthday;
  try {
    b = parseBirthday(input);
  } catch (e) {
    throw new RescanRefused('invalid_request', (e as Error).message);
  }
  await setState(db, K.birthday, b.text);
  let resolved: Resolved;
  try {
    resolved = await resolveFrom(db, chain, b.text);
  } catch (e) {
    if (e instanceof RescanRefused && e.code === 'conflict') return { birthday: b.text, rescan: null }; // the worker applies it once synced
    throw e;
  }
  if (resolved.beforeLow) {
    await setState(db, K.birthday, null);
    throw new RescanRefused('invalid_request', beforeLowMessage(resolved));
  }
  const rescan = await scanFromBirthday(db, resolved);
  await setState(db, K.applied, b.text);
  return { birthday: b.text, rescan };
}

async function scanFromBirthday(db: Db, r: Resolved): Promise<RescanState | null> {
  const from = Math.max(r.height, r.low);
  if (from > r.high) return null; // nothing older than what the follower scans
  const sfRaw = await getState(db, K.scannedFrom);
  const running = await readRescan(db);
  if (sfRaw !== null && from >= Number(sfRaw)) return null; // already complete from there
  if (running && !running.finished_at && running.from <= from) return running;
  return startRescan(db, from, r.high, 'birthday');
}

/** WALLET_BIRTHDAY seeds the setting; a changed value in the environment applies again. */
export async function seedBirthdayFromEnv(db: Db, b: Birthday | null): Promise<void> {
  if (!b || (await getState(db, K.env)) === b.text) return;
  await setState(db, K.birthday, b.text);
  await setState(db, K.env, b.text);
}

/** Worker: turns a birthday not applied yet into a rescan (after the first block was processed). */
export async function applyBirthday(db: Db, chain: Chain): Promise<void> {
  const b = await getState(db, K.birthday);
  if (!b || b === (await getState(db, K.applied))) return;
  let r: Resolved;
  try {
    r = await resolveFrom(db, chain, b);
  } catch (e) {
    if (e instanceof RescanRefused && e.code === 'conflict') return; // not synced yet: next tick
    if (e instanceof RescanRefused) {
      log.warn('the wallet birthday is not usable; ignoring it', { birthday: b, error: e.message });
      await setState(db, K.applied, b);
      return;
    }
    throw e;
  }
  if (r.beforeLow)
    log.warn('the wallet birthday is before the first stored header: scanning from that header', {
      birthday: b,
      from: r.low,
      hint: beforeLowMessage(r),
    });
  await scanFromBirthday(db, r);
  await setState(db, K.applied, b);
}

async function bestHashes(db: Db, chain: Chain, first: number, last: number): Promise<string[]> {
  if (chain.ownsHeaderStore) {
    const rows = await db.prisma.chainHeader.findMany({
      where: { inBest: true, height: { gte: first, lte: last } },
      orderBy: { height: 'asc' },
      select: { hash: true, height: true },
    });
    if (rows.length !== last - first + 1 || rows.some((r, i) => r.height !== first + i))
      throw new BackendUnavailableError(`the header store has no best chain from ${first} to ${last} right now`);
    return rows.map((r) => r.hash);
  }
  const out = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => chain.blockHashAt(first + i)));
  const gap = out.findIndex((h) => !h);
  if (gap >= 0) throw new BackendUnavailableError(`no block at height ${first + gap}`);
  return out as string[];
}

export interface RescanStepOptions {
  /** Blocks per request (spv: one getdata of filtered blocks; default 250, 25 for full blocks). */
  batch?: number;
  /** Stop starting batches after this long (default 2 s), so the worker's tick stays short (mempool payments are seen in seconds). */
  budgetMs?: number;
}

/**
 * One worker tick's share of a running rescan: batches of blocks from its cursor towards the
 * follower's processed tip, each through the wallet tracker, the cursor saved after each batch.
 * A failure is recorded on the rescan (and logged) and retried on the next tick. Returns the
 * number of blocks scanned.
 */
export async function rescanStep(db: Db, network: Network, chain: Chain, opts: RescanStepOptions = {}): Promise<number> {
  const r = await readRescan(db);
  if (!r || r.finished_at) return 0;
  const tip = await processedTip(db, chain);
  if (!tip) return 0;
  r.target = tip.height;
  const batch = opts.batch ?? (chain.blocks ? 250 : 25);
  const t0 = Date.now();
  let n = 0;
  try {
    while (r.current < r.target && (n === 0 || Date.now() - t0 < (opts.budgetMs ?? 2_000))) {
      const first = r.current + 1;
      const last = Math.min(r.target, r.current + batch);
      const hashes = await bestHashes(db, chain, first, last);
      const blocks: BlockSummary[] = chain.blocks ? await chain.blocks(hashes) : await Promise.all(hashes.map((h) => chain.block(h)));
      await syncWatchAddresses(db, network); // once per batch; the tracker re-syncs after a block that paid us
      for (const [i, b] of blocks.entries()) {
        if (b.hash !== hashes[i] || toHex(sha256d(b.header).reverse()) !== b.hash)
          throw new Error(`backend sent a block that is not ${hashes[i]}`);
        await trackBlockConnected(db, network, { ...b, height: first + i }, { addressesSynced: true });
        r.current = first + i;
        r.blocks++;
        n++;
      }
      r.updated_at = new Date().toISOString();
      r.error = null;
      await writeRescan(db, r);
    }
  } catch (e) {
    r.error = (e as Error).message;
    r.updated_at = new Date().toISOString();
    await writeRescan(db, r);
    log.warn('wallet rescan paused (retried on the next tick)', { at: r.current + 1, error: e as Error });
    return n;
  }
  if (r.current >= r.target) {
    r.finished_at = new Date().toISOString();
    await writeRescan(db, r);
    await noteScannedFrom(db, r.from);
    const sec = (Date.parse(r.finished_at) - Date.parse(r.started_at)) / 1000;
    log.info('wallet rescan finished', {
      from: r.from,
      to: r.current,
      blocks: r.blocks,
      seconds: sec,
      blocks_per_sec: sec > 0 ? Math.round(r.blocks / sec) : r.blocks,
    });
  }
  return n;
}
