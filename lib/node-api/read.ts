// Reads for the node text API. The wallet's belong to one store: its watched addresses, and the
// outputs and txs that pay or spend them (docs/architecture.md#data). Each listing is one SQL statement, so it is a consistent snapshot
// even while the chain worker writes (PostgreSQL gives every statement one snapshot; the
// tracker applies each block in one transaction). The headers file is paged by height.
import type { Db } from '../db';
import { findStore, storeIdOf } from '../stores';
import type { OutputRecord } from './format';
import type { HeaderRow, WalletFileInput } from './files';

const toBytes = (v: unknown): Uint8Array => (v instanceof Uint8Array ? new Uint8Array(v) : new Uint8Array(0));

/** Height of the stored best chain's tip (-1 before the first block). */
const TIP_SQL = `(SELECT COALESCE(MAX(height), -1) FROM chain_header WHERE in_best)`;

export interface WalletOutputsSnapshot {
  tipHeight: number;
  records: OutputRecord[];
}

/**
 * Wallet outputs (spent, unspent or both) with the tip height, in one snapshot. Oldest block
 * first; within a block in block order (the tx's position), then vout, as libdogecoin's spvnode
 * lists them (rows recorded before positions were kept fall back to txid order).
 */
export async function walletOutputs(db: Db, storeId: number, which: 'spent' | 'unspent' | 'all'): Promise<WalletOutputsSnapshot> {
  const cond = which === 'spent' ? 'o.spent_txid IS NOT NULL' : which === 'unspent' ? 'o.spent_txid IS NULL' : 'TRUE';
  const rows = await db.query<{
    tip: number;
    txid: string | null;
    vout: number;
    address: string;
    script: string;
    amount: string;
    height: number | null;
    spent: boolean;
  }>(
    `SELECT t.tip, o.txid, o.vout, o.address, o.script, o.amount::text AS amount, o.height, (o.spent_txid IS NOT NULL) AS spent
       FROM (SELECT ${TIP_SQL} AS tip) t
       LEFT JOIN wallet_output o ON ${cond} AND o.address IN (SELECT address FROM wallet_address WHERE store_id = $1)
      ORDER BY o.height ASC NULLS LAST, o.block_pos ASC NULLS LAST, o.txid ASC, o.vout ASC`,
    [storeIdOf(storeId)],
  );
  const tipHeight = rows.length ? Number(rows[0].tip) : -1;
  const records = rows
    .filter((r) => r.txid !== null)
    .map((r) => ({
      txid: r.txid!,
      vout: Number(r.vout),
      address: r.address,
      script: r.script,
      amount: BigInt(r.amount),
      height: r.height === null ? null : Number(r.height),
      spent: !!r.spent,
    }));
  return { tipHeight, records };
}

/** Sum of the store's unspent wallet outputs. */
export async function walletBalance(db: Db, storeId: number): Promise<bigint> {
  const [r] = await db.query<{ balance: string }>(
    `SELECT COALESCE(SUM(o.amount), 0)::text AS balance FROM wallet_output o JOIN wallet_address a ON a.address = o.address
      WHERE a.store_id = $1 AND o.spent_txid IS NULL`,
    [storeIdOf(storeId)],
  );
  return BigInt(r.balance);
}

/** The store's watched addresses: branch, then index, then address. */
export async function walletAddresses(db: Db, storeId: number): Promise<string[]> {
  const rows = await db.query<{ address: string }>(`SELECT address FROM wallet_address WHERE store_id = $1 ORDER BY branch, idx, address`, [
    storeIdOf(storeId),
  ]);
  return rows.map((r) => r.address);
}

export async function chainTipHeight(db: Db): Promise<number> {
  const [r] = await db.query<{ tip: number }>(`SELECT ${TIP_SQL} AS tip`);
  return Math.max(Number(r.tip), 0);
}

/** The chain_state figures of the last block the worker processed (0 when none yet). */
export async function lastBlockInfo(db: Db): Promise<{ size: number; txCount: number; totalTxSize: number }> {
  const rows = await db.query<{ key: string; value: string }>(
    `SELECT key, value FROM chain_state WHERE key IN ('last_block_size', 'last_block_tx_count', 'last_block_total_tx_size')`,
  );
  const get = (k: string) => {
    const n = Number(rows.find((r) => r.key === k)?.value ?? '0');
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  };
  return { size: get('last_block_size'), txCount: get('last_block_tx_count'), totalTxSize: get('last_block_total_tx_size') };
}

/**
 * Everything the wallet file holds, in one statement: the account key (or null), the addresses
 * and the wallet's transactions (oldest first; unconfirmed last, with height 0). Null when no
 * receiving wallet is configured.
 */
export async function walletFileInput(db: Db, genesisHash: string, storeId: number): Promise<WalletFileInput | null> {
  const wallet = await findStore(db, storeId);
  if (!wallet || (!wallet.storeXpub && !wallet.storeAddress)) return null;
  const [r] = await db.query<{ addrs: unknown; txs: unknown }>(
    `WITH mine AS (SELECT address, hash160, branch, idx FROM wallet_address WHERE store_id = $1),
          touched AS (SELECT o.txid FROM wallet_output o JOIN mine USING (address)
                      UNION SELECT o.spent_txid FROM wallet_output o JOIN mine USING (address) WHERE o.spent_txid IS NOT NULL)
     SELECT (SELECT COALESCE(json_agg(json_build_object('h', hash160, 'i', idx) ORDER BY branch, idx, address), '[]'::json) FROM mine) AS addrs,
            (SELECT COALESCE(json_agg(json_build_object('t', txid, 'h', height, 'r', encode(raw, 'hex')) ORDER BY height ASC NULLS LAST, block_pos ASC NULLS LAST, txid), '[]'::json)
               FROM wallet_tx WHERE octet_length(raw) > 0 AND txid IN (SELECT txid FROM touched)) AS txs`,
    [storeIdOf(storeId)],
  );
  if (!r) return null;
  const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>[];
  return {
    genesisHash,
    xpub: wallet.storeXpub || null,
    addresses: parse(r.addrs).map((a) => ({ hash160: String(a.h), type: 0, childIndex: Number(a.i), ignore: false })),
    txs: parse(r.txs).map((t) => ({ txid: String(t.t), height: t.h === null ? 0 : Number(t.h), raw: Buffer.from(String(t.r), 'hex') })),
  };
}

export interface HeaderPage {
  rows: HeaderRow[];
  lastHeight: number;
}

/** The stored best-chain tip height at the start of a headers download (-1 when empty). */
export async function bestTipHeight(db: Db): Promise<number> {
  const [r] = await db.query<{ tip: number }>(`SELECT ${TIP_SQL} AS tip`);
  return Number(r.tip);
}

/** Up to `limit` best-chain headers with afterHeight < height <= maxHeight, by height. */
export async function headerPage(db: Db, afterHeight: number, maxHeight: number, limit: number): Promise<HeaderRow[]> {
  const rows = await db.query<{ hash: string; height: number; chainwork: string; header: unknown }>(
    `SELECT hash, height, chainwork::text AS chainwork, header FROM chain_header
      WHERE in_best AND height > $1 AND height <= $2 ORDER BY height LIMIT $3`,
    [afterHeight, maxHeight, limit],
  );
  return rows.map((r) => ({
    hash: r.hash,
    height: Number(r.height),
    chainwork: BigInt(r.chainwork.split('.')[0]),
    header: toBytes(r.header),
  }));
}
