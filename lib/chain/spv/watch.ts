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

/** A filter over the set, with room to grow (filteradd) before the next reload. */
export function buildFilter(w: WatchSet, fpRate = 0.0001): BloomFilter {
  const n = w.hash160s.length + w.outpoints.length + w.txids.length;
  const f = new BloomFilter(Math.max(n * 2, 100), fpRate, randomInt(0, 0x7fffffff), BLOOM_UPDATE_ALL);
  for (const h of w.hash160s) f.insert(fromHex(h));
  for (const o of w.outpoints) f.insert(outpointBytes(o.txid, o.vout));
  for (const t of w.txids) f.insert(hexToHash(t));
  return f;
}
