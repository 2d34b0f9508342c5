// GET /invoices/{address} (docs/using-counter.md#the-back-office-admin-and-the-invoice-listing): the payments where an address is the buyer or the
// seller, newest first, in zero-based pages with the real total. Pure domain code.
//
// Matching: the buyer (payment.buyer_address, which /pay sets to the submission's refund or the
// address of the tx's first input), the payment's own receive address, or, when the address is
// the store's seller address (first receive address or STORE_ADDRESS), every payment of the store.
// Only the caller's store's payments are listed (docs/architecture.md#data): an API key sees its
// own store's invoices, whoever the buyer also paid.
// Each case is served by an index: payment_address_seq_idx, payment_buyer_seq_idx,
// payment_seq_key and, with mint_hash, payment_mint_hash_seq_idx (migration
// 20261123120000_backoffice), read index-only once PGlite is vacuumed (lib/db/maintenance.ts).
import { z } from 'zod';
import type { Db } from '../db';
import { findStore, isOnlyStore, storeIdOf } from '../stores';
import { isValidAddress, type Network } from '../doge';
import { koinuToDogeNumber } from '../money';
import { InvalidRequestError, fromZod } from '../errors';
import { sellerAddress } from '../payments';

export const INVOICE_LIMIT_MAX = 100;
export const INVOICE_PAGE_MAX = 1000;

const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, `must be an integer ${min}–${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be an integer ${min}–${max}`).max(max, `must be an integer ${min}–${max}`));

const Query = z.object({
  limit: intParam(1, INVOICE_LIMIT_MAX).optional(),
  page: intParam(0, INVOICE_PAGE_MAX).optional(),
  mint_hash: z
    .string()
    .regex(/^([0-9a-fA-F]{64})?$/, 'must be 64 hex digits')
    .optional(), // as POST /api/v1/payments accepts it
});

export interface Invoice {
  id: string;
  hash: string;
  mint_hash: string;
  pending_token_balance_id: string;
  block_height: number;
  buyer_address: string;
  seller_address: string;
  payment_address: string;
  price: number;
  quantity: number;
  public_key: string;
  signature: string;
  transaction_hash: string;
  created_at: string;
  paid_at: { time: string; valid: boolean };
}

export interface InvoicePage {
  invoices: Invoice[];
  limit: number;
  page: number;
  total: number;
}

export interface InvoiceQuery {
  limit: number;
  page: number;
  mintHash: string | null;
}

/** Validates the path address and query; throws InvalidRequestError (400) on bad input. */
export function parseInvoiceQuery(address: string, params: URLSearchParams, network: Network): InvoiceQuery {
  if (address.length > 100 || !isValidAddress(address, network)) {
    throw new InvalidRequestError('address', `is not a valid ${network.name} address`);
  }
  const raw: Record<string, string> = {};
  for (const k of ['limit', 'page', 'mint_hash']) {
    const v = params.get(k);
    if (v !== null) raw[k] = v;
  }
  const q = Query.safeParse(raw);
  if (!q.success) throw fromZod(q.error);
  return { limit: q.data.limit ?? INVOICE_LIMIT_MAX, page: q.data.page ?? 0, mintHash: q.data.mint_hash ? q.data.mint_hash : null };
}

interface Row {
  id: string;
  payloadHash: string;
  mintHash: string;
  pendingTokenBalanceId: string;
  blockHeight: number | null;
  buyerAddress: string;
  address: string;
  total: bigint;
  quantity: number;
  pubkey: string;
  signature: string;
  txid: string | null;
  status: string;
  createdAt: Date;
  confirmedAt: Date | null;
}

export function invoiceView(r: Row, seller: string): Invoice {
  const confirmed = r.status === 'confirmed';
  return {
    id: r.id,
    hash: r.payloadHash,
    mint_hash: r.mintHash,
    pending_token_balance_id: r.pendingTokenBalanceId,
    block_height: r.blockHeight ?? 0,
    buyer_address: r.buyerAddress,
    seller_address: seller,
    payment_address: r.address,
    price: koinuToDogeNumber(r.total),
    quantity: r.quantity,
    public_key: r.pubkey,
    signature: r.signature,
    transaction_hash: r.txid ?? '',
    created_at: r.createdAt.toISOString(),
    paid_at: { time: confirmed && r.confirmedAt ? r.confirmedAt.toISOString() : '', valid: confirmed },
  };
}

// Deriving 0/0 from the account key costs an EC multiplication: remember the stores' (bounded:
// cleared whole when it fills, as many stores may take turns).
const sellerMemo = new Map<string, string>();
const SELLER_MEMO_MAX = 1024;

function storeSeller(store: { storeXpub: string; storeAddress: string } | null, network: Network): string {
  if (!store) return '';
  const key = `${network.name}|${store.storeXpub}|${store.storeAddress}`;
  const known = sellerMemo.get(key);
  if (known !== undefined) return known;
  let address = '';
  try {
    address = sellerAddress(store, network);
  } catch {
    address = ''; // a stored key that no longer parses (e.g. network changed): no seller match
  }
  if (sellerMemo.size >= SELLER_MEMO_MAX) sellerMemo.clear();
  sellerMemo.set(key, address);
  return address;
}

/**
 * Number of a store's payments. With one store on the installation, the trigger-maintained
 * shards (exact, without a table scan) are that store's; with several, the store's own are counted.
 */
async function paymentCount(db: Db, storeId: number): Promise<number> {
  const rows = (await isOnlyStore(db, storeId))
    ? await db.query<{ n: unknown }>(`SELECT coalesce(sum(n), 0) AS n FROM payment_count`)
    : await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM payment WHERE store_id = $1 AND seq > 0`, [storeId]);
  return Number(rows[0]?.n ?? 0);
}

const COLS = `p.id, p.payload_hash, p.mint_hash, p.pending_token_balance_id, p.block_height, p.buyer_address, p.address,
  p.total, p.quantity, p.pubkey, p.signature, p.txid, p.status, p.created_at, p.confirmed_at`;

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

function toRow(r: Record<string, unknown>): Row {
  return {
    id: String(r.id),
    payloadHash: String(r.payload_hash),
    mintHash: String(r.mint_hash),
    pendingTokenBalanceId: String(r.pending_token_balance_id),
    blockHeight: r.block_height === null ? null : Number(r.block_height),
    buyerAddress: String(r.buyer_address),
    address: String(r.address),
    total: BigInt(String(r.total)),
    quantity: Number(r.quantity),
    pubkey: String(r.pubkey),
    signature: String(r.signature),
    txid: r.txid === null ? null : String(r.txid),
    status: String(r.status),
    createdAt: toDate(r.created_at),
    confirmedAt: r.confirmed_at === null ? null : toDate(r.confirmed_at),
  };
}

/** The three scans of matchedSeqs, over $1 (the store) and $2 (mint_hash or NULL), or $2 (address) and $3 (mint_hash or NULL). */
const STORE_SCAN = `SELECT seq FROM payment WHERE seq > 0 AND store_id = $1 AND ($2::text IS NULL OR mint_hash = $2)`;
const ADDRESS_SCAN = `SELECT seq FROM payment WHERE address = $2 AND seq > 0 AND store_id = $1 AND ($3::text IS NULL OR mint_hash = $3)`;
const BUYER_SCAN = `SELECT seq FROM payment WHERE buyer_address = $2 AND seq > 0 AND store_id = $1 AND ($3::text IS NULL OR mint_hash = $3)`;

/**
 * The `seq`s an address matches in a store, as a SQL set over $1 (the store), $2 (address) and $3 (mint_hash or NULL):
 * its payment address or its buyer address. Two scans of (address, seq DESC) and
 * (buyer_address, seq DESC); each match's store is read from its row (a store-first index
 * would cost every payment write one more index entry); UNION drops a payment whose
 * buyer is its own payment address. `address = $1 OR buyer_address = $1` instead makes a
 * bitmap scan that visits one heap page per match (1,000 pages for a buyer with 1,000
 * invoices), and once walked the whole seq index (1–3 s at 1,000,000 invoices). The store's
 * seller address matches every payment (optionally of one mint_hash): payment_seq_key or
 * payment_mint_hash_seq_idx. Refunds (docs/api.md#refunds) are not invoices: their rows have a
 * negative seq, so `seq > 0` leaves them out as an index condition, without a heap visit.
 */
function matchedSeqs(storeId: number, address: string | null, mintHash: string | null): { sql: string; params: unknown[] } {
  if (address === null) return { sql: STORE_SCAN, params: [storeId, mintHash] };
  return { sql: `(${ADDRESS_SCAN}) UNION (${BUYER_SCAN})`, params: [storeId, address, mintHash] };
}
/**
 * One page of invoices, newest first, in plain SQL (the ORM costs several ms per query on
 * PGlite, see lib/relay/hot-reads.ts). The page's `seq`s are picked first from the index alone
 * (LIMIT/OFFSET over index entries, no heap access for the skipped rows), then only the listed
 * rows are read, by payment_seq_key. Skipping the offset over the table itself read every
 * skipped row: page 200 of the store's list touched 5,000 heap pages (60–110 ms on PGlite).
 */
async function pageRows(db: Db, storeId: number, address: string | null, q: InvoiceQuery): Promise<Row[]> {
  const upTo = (q.page + 1) * q.limit;
  const rows =
    address === null
      ? await db.query<Record<string, unknown>>(
          `SELECT ${COLS} FROM (${STORE_SCAN} ORDER BY seq DESC LIMIT $3 OFFSET $4) k
             JOIN payment p ON p.seq = k.seq AND p.store_id = $1 ORDER BY k.seq DESC`,
          [storeId, q.mintHash, q.limit, q.page * q.limit],
        )
      : // A page needs at most `upTo` newest matches from each scan.
        await db.query<Record<string, unknown>>(
          `SELECT ${COLS} FROM ((${ADDRESS_SCAN} ORDER BY seq DESC LIMIT $4) UNION (${BUYER_SCAN} ORDER BY seq DESC LIMIT $4)
             ORDER BY seq DESC LIMIT $5 OFFSET $6) k JOIN payment p ON p.seq = k.seq AND p.store_id = $1 ORDER BY k.seq DESC`,
          [storeId, address, q.mintHash, upTo, q.limit, q.page * q.limit],
        );
  return rows.map(toRow);
}

async function matchCount(db: Db, storeId: number, address: string | null, mintHash: string | null): Promise<number> {
  if (address === null && mintHash === null) return paymentCount(db, storeId);
  const m = matchedSeqs(storeId, address, mintHash);
  const rows = await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM (${m.sql}) s`, m.params);
  return Number(rows[0]?.n ?? 0);
}

/** One page of the store's invoices that `address` matches (as buyer, payment address or the store's seller). */
export async function listInvoices(db: Db, network: Network, storeId: number, address: string, q: InvoiceQuery): Promise<InvoicePage> {
  const seller = storeSeller(await findStore(db, storeIdOf(storeId)), network);
  const match = address === seller ? null : address;
  const total = await matchCount(db, storeId, match, q.mintHash);
  const rows = q.page * q.limit < total ? await pageRows(db, storeId, match, q) : [];
  return { invoices: rows.map((r) => invoiceView(r, seller)), limit: q.limit, page: q.page, total };
}
