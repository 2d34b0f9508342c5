// Text formats of the node API (docs/protocol.md#the-node-text-api): pure functions, byte-exact with
// libdogecoin's spvnode `src/rest.c`. Labels are padded so values start at column 17, records
// are separated by 22 dashes, amounts have exactly 8 decimals, and every line ends in "\n".
import { formatKoinuFixed } from '../money';

export const SEPARATOR = '-'.repeat(22);

/** One wallet output as the listings print it. */
export interface OutputRecord {
  txid: string; // display-order hex
  vout: number;
  address: string;
  script: string; // lowercase hex scriptPubKey
  amount: bigint; // koinu
  /** Block height of the output, or null while unconfirmed. */
  height: number | null;
  spent: boolean;
}

/** `label:` padded with spaces to 16 characters, so the value starts at column 17. */
function field(label: string, value: string | number): string {
  return `${(label + ':').padEnd(16, ' ')}${value}\n`;
}

/** tip - height + 1 for a confirmed output, 0 while unconfirmed (never negative mid-reorg). */
export function confirmations(height: number | null, tipHeight: number): number {
  if (height === null) return 0;
  return Math.max(tipHeight - height + 1, 0);
}

/**
 * The eight output record lines. A spent output is not spendable; `solvable` is 1 because the
 * wallet knows the P2PKH script of its own addresses (the reference's sample prints a spent
 * record with `solvable: 1`).
 */
export function formatOutputRecord(o: OutputRecord, tipHeight: number): string {
  return (
    field('txid', o.txid) +
    field('vout', o.vout) +
    field('address', o.address) +
    field('script_pubkey', o.script.toLowerCase()) +
    field('amount', formatKoinuFixed(o.amount)) +
    field('confirmations', confirmations(o.height, tipHeight)) +
    field('spendable', o.spent ? 0 : 1) +
    field('solvable', 1)
  );
}

export function sumAmounts(records: readonly OutputRecord[]): bigint {
  return records.reduce((s, r) => s + r.amount, 0n);
}

/** /getBalance */
export function formatBalance(koinu: bigint): string {
  return `Wallet balance: ${formatKoinuFixed(koinu)}\n`;
}

/** /getAddresses */
export function formatAddresses(addresses: readonly string[]): string {
  return addresses.map((a) => `address: ${a}\n`).join('');
}

/** /getUTXOs: the unspent records of `records` (spent ones are skipped), then the total. */
export function formatUtxos(records: readonly OutputRecord[], tipHeight: number): string {
  const unspent = records.filter((r) => !r.spent);
  let out = '';
  for (const r of unspent) out += `${SEPARATOR}\nUnspent UTXO:\n${formatOutputRecord(r, tipHeight)}`;
  return out + `Total Unspent: ${formatKoinuFixed(sumAmounts(unspent))}\n`;
}

/** /getTransactions: the spent (non-spendable) records of `records`, then their total. */
export function formatSpent(records: readonly OutputRecord[], tipHeight: number): string {
  const spent = records.filter((r) => r.spent);
  let out = '';
  for (const r of spent) out += `${SEPARATOR}\n${formatOutputRecord(r, tipHeight)}`;
  return out + `Spent Balance: ${formatKoinuFixed(sumAmounts(spent))}\n`;
}

/** /getChaintip */
export function formatChaintip(height: number): string {
  return `Chain tip: ${height}\n`;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * /getTimestamp: the node's current local time as `YYYY-MM-DD HH:MM:SS`, unlabelled (the
 * spec's sample form; docs/node.md#node-text-api). Local means the server process's time zone (TZ).
 */
export function formatTimestamp(now: Date): string {
  const y = String(now.getFullYear()).padStart(4, '0');
  return `${y}-${two(now.getMonth() + 1)}-${two(now.getDate())} ${two(now.getHours())}:${two(now.getMinutes())}:${two(now.getSeconds())}\n`;
}

export interface LastBlockInfo {
  size: number;
  txCount: number;
  totalTxSize: number;
}

/** /getLastBlockInfo */
export function formatLastBlockInfo(b: LastBlockInfo): string {
  return `Block size: ${b.size}\nTx count: ${b.txCount}\nTotal tx size: ${b.totalTxSize}\n`;
}
