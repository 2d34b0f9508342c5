// What the spv node asks its peers to filter for: the watch-only wallet's hash160s (every
// wallet_address row, including payment receive addresses), its unspent outpoints (so spends
// match), the txids of payments awaiting confirmation, the customer addresses of open refunds
// (docs/api.md#refunds: a refund pays the customer, whose address is no wallet_address), and the
// outpoints that the unmined txs paying open payments spend (so a conflicting tx, a double spend,
// matches the filter when a block mines it: docs/api.md#payments-from-any-wallet; it pays none of our
// addresses), and the addresses of the wallet check's pending cases (a wallet that pays one
// on-chain instead of calling /relay/pay must be seen: docs/wallet-check.md#what-the-relay-records;
// the worker hands those txs to the check alone, and no payment or wallet row holds these
// addresses, so they never reach a store). Built into a BIP37 filter; the fingerprint tells the
// node when the set changed and the filter must be reloaded.
import { createHash, randomInt } from 'node:crypto';
import type { Db } from '../../db';
import { fromHex, hexToHash, toHex, base58checkDecode } from '../../doge';
import { BloomFilter, BLOOM_UPDATE_ALL } from '../../p2p';
import { walletWatchSet } from '../wallet-tracker';

export interface WatchSet {
  hash160s: string[]; // hex
  outpoints: { txid: string; vout: number }[]; // display txid
  txids: string[]; // display
}

/** The hash160 (hex) of a base58check address, or null when it is not one. */
export function addressHash160(address: string): string | null {
  const payload = base58checkDecode(address);
  return payload && payload.length === 21 ? toHex(payload.slice(1)) : null;
}

/**
 * The wallet check's case addresses watched at most: the newest pending ones. A filter has a
 * fixed maximum size (BIP37), so more elements only raise its false positive rate; a burst of
 * runs must not turn the store's own filter into one that matches every tx.
 */
export const MAX_CHECK_ADDRESSES = 1000;

/**
 * The addresses of the wallet check's cases still waiting for a decision, in runs neither finished
 * nor older than a day (the check prunes those: docs/wallet-check.md#limits). A decided case, a
 * finished run or a pruned one leaves the filter at its next reload.
 */
function pendingCheckAddresses(db: Db) {
  return db.query<{ address: string }>(
    `SELECT c.address FROM wallet_check_case c JOIN wallet_check_run r ON r.id = c.run_id
      WHERE c.result = 'pending' AND r.finished_at IS NULL AND r.created_at > now() - interval '1 day'
      ORDER BY r.created_at DESC, c.position LIMIT ${MAX_CHECK_ADDRESSES}`,
  );
}

export async function loadWatchSet(db: Db): Promise<WatchSet> {
  const [wallet, pays, refunds, spends, checks] = await Promise.all([
    walletWatchSet(db),
    db.query<{ txid: string }>(`SELECT txid FROM payment WHERE txid IS NOT NULL AND status IN ('unpaid', 'accepted') ORDER BY txid`),
    db.query<{ address: string }>(
      `SELECT DISTINCT address FROM payment WHERE refund_of IS NOT NULL AND status IN ('unpaid', 'accepted') ORDER BY address`,
    ),
    db.query<{ outpoint: string }>(
      `SELECT DISTINCT unnest(t.inputs) AS outpoint FROM payment_tx t JOIN payment p ON p.id = t.payment_id
        WHERE t.block_height IS NULL AND t.conflicted_by IS NULL AND p.status IN ('unpaid', 'accepted', 'confirmed') ORDER BY 1`,
    ),
    pendingCheckAddresses(db),
  ]);
  const hash160s = new Set(wallet.hash160s);
  for (const r of [...refunds, ...checks]) {
    const h = addressHash160(String(r.address));
    if (h) hash160s.add(h);
  }
  const outpoints = [...wallet.outpoints];
  for (const { outpoint } of spends) {
    const [txid, vout] = String(outpoint).split(':');
    if (txid && /^[0-9a-f]{64}$/.test(txid) && /^\d+$/.test(vout ?? '')) outpoints.push({ txid, vout: Number(vout) });
  }
  return { hash160s: [...hash160s], outpoints, txids: pays.map((p) => p.txid) };
}

export function fingerprint(w: WatchSet): string {
  const h = createHash('sha256');
  h.update(w.hash160s.join(','))
    .update('|')
    .update(w.outpoints.map((o) => `${o.txid}:${o.vout}`).join(','))
    .update('|')
    .update(w.txids.join(','));
  return h.digest('hex');
}

export function outpointBytes(txid: string, vout: number): Uint8Array {
  const b = new Uint8Array(36);
  b.set(hexToHash(txid), 0);
  new DataView(b.buffer).setUint32(32, vout, true);
  return b;
}

/** The set's elements as the filter holds them: hash160s, outpoints (36 bytes) and txids (internal order). */
function elementsOf(w: WatchSet): Uint8Array[] {
  return [
    ...w.hash160s.map((h) => fromHex(h)),
    ...w.outpoints.map((o) => outpointBytes(o.txid, o.vout)),
    ...w.txids.map((t) => hexToHash(t)),
  ];
}

function filterOver(elements: readonly Uint8Array[], fpRate: number): BloomFilter {
  const f = new BloomFilter(Math.max(elements.length * 2, 100), fpRate, randomInt(0, 0x7fffffff), BLOOM_UPDATE_ALL);
  for (const e of elements) f.insert(e);
  return f;
}

/** A filter over the set, with room to grow (filteradd) before the next reload. */
export function buildFilter(w: WatchSet, fpRate = 0.0001): BloomFilter {
  return filterOver(elementsOf(w), fpRate);
}

/**
 * The most elements one filter share holds. BIP37 caps a filter at 36,000 bytes, so past about
 * 7,500 elements a single filter loses its room to grow and its false-positive rate climbs with
 * every store (6.2 % at 1,000 stores). At 15,000 elements a share at the cap still matches about
 * 1 random tx in 2,500: docs/node.md#many-stores-and-the-filter.
 */
export const FILTER_SHARE_ELEMENTS = 15_000;

/**
 * The set as one filter per share: ceil(elements / perShare) shares, each element in exactly one,
 * chosen by its own bytes (hash160s, txids and outpoints are uniform), so the shares are even and
 * a peer that holds share i matches, relays and proves every tx that touches share i's elements.
 * The node loads each share on its own connections (peer-filters.ts) and asks a holder of every
 * share for each block (backend.ts). One share is exactly buildFilter.
 */
export function buildFilters(w: WatchSet, perShare = FILTER_SHARE_ELEMENTS, fpRate = 0.0001): BloomFilter[] {
  const elements = elementsOf(w);
  const count = Math.max(1, Math.ceil(elements.length / Math.max(1, perShare)));
  const shares: Uint8Array[][] = Array.from({ length: count }, () => []);
  for (const e of elements) shares[shareOf(e, count)]!.push(e);
  return shares.map((s) => filterOver(s, fpRate));
}

/** The share an element belongs to among `count`: its first four bytes, little-endian, modulo count. */
export function shareOf(element: Uint8Array, count: number): number {
  const v = (element[0]! | (element[1]! << 8) | (element[2]! << 16) | (element[3]! << 24)) >>> 0;
  return v % count;
}
