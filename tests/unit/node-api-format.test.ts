// Golden tests of the node text API formats (docs/protocol.md#the-node-text-api): byte-exact against the
// libdogecoin documentation samples, plus zero, fractional, spent/unspent and empty cases.
import { fixturePath } from '../helpers/fixtures';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  SEPARATOR,
  confirmations,
  formatAddresses,
  formatBalance,
  formatChaintip,
  formatLastBlockInfo,
  formatOutputRecord,
  formatSpent,
  formatTimestamp,
  formatUtxos,
  type OutputRecord,
} from '@/lib/node-api/format';

/** The sample bodies of libdogecoin's doc/rest.md, by endpoint. */
function samples(): Record<string, string> {
  const text = readFileSync(fixturePath('libdogecoin-rest-samples.txt'), 'utf8');
  const out: Record<string, string> = {};
  const parts = text.split(/^=== (?:GET )?(.+?) ===\n/m);
  for (let i = 1; i < parts.length; i += 2) out[parts[i]] = parts[i + 1].replace(/\n+$/, '\n');
  return out;
}

describe('node text formats', () => {
  const s = samples();

  it('reproduces the reference samples byte for byte', () => {
    expect(formatBalance(12_345_678_900n)).toBe(s['/getBalance']);
    expect(formatAddresses(['DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L', 'DQe1QeG4FxhEgvfuvGfC7oL5G2G87huuxU'])).toBe(s['/getAddresses']);
    expect(formatChaintip(3_500_000)).toBe(s['/getChaintip']);
    expect(formatLastBlockInfo({ size: 4130, txCount: 11, totalTxSize: 3355 })).toBe(s['/getLastBlockInfo']);
    // confirmations = tip - height + 1 = 100
    const spent: OutputRecord = {
      txid: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      vout: 0,
      address: 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L',
      script: '76a9144621d6a7f3b4ebbaee4e2d8c10eafbf1ccbc9c0a88ac',
      amount: 5_000_000_000n,
      height: 901,
      spent: true,
    };
    expect(formatSpent([spent], 1000)).toBe(s['/getTransactions']);
    const unspent: OutputRecord = {
      txid: 'b1fea5241c4a1d7d1e6c6d619fbf3bb8b1ec3f1f1d2f4c5b6a7c8d9e0f1a2b3c',
      vout: 1,
      address: 'DQe1QeG4FxhEgvfuvGfC7oL5G2G87huuxU',
      script: '76a9145d6a7f3b4ebbaee4e2d8c10eafbf1ccbc9c0a88ac',
      amount: 7_500_000_000n,
      height: 1,
      spent: false,
    };
    expect(formatUtxos([unspent], 100)).toBe(s['/getUTXOs']);
    expect(s['/getTimestamp']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n$/);
  });

  it('pads every label to column 17 and separates with 22 dashes', () => {
    expect(SEPARATOR).toBe('----------------------');
    const rec = formatOutputRecord(
      { txid: 'ab'.repeat(32), vout: 7, address: 'nX', script: '76A914', amount: 1n, height: null, spent: false },
      5,
    );
    const lines = rec.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => l.slice(0, 16).trimEnd())).toEqual([
      'txid:',
      'vout:',
      'address:',
      'script_pubkey:',
      'amount:',
      'confirmations:',
      'spendable:',
      'solvable:',
    ]);
    expect(lines.every((l) => l[16] !== ' ' && l.slice(0, 16).endsWith(' '))).toBe(true);
    expect(rec).toContain('script_pubkey:  76a914\n'); // lowercase hex
    expect(rec).toContain('amount:         0.00000001\n');
    expect(rec).toContain('confirmations:  0\n'); // unconfirmed
  });

  it('prints zero, fractional and large amounts with exactly 8 decimals', () => {
    expect(formatBalance(0n)).toBe('Wallet balance: 0.00000000\n');
    expect(formatBalance(5000n)).toBe('Wallet balance: 0.00005000\n');
    expect(formatBalance(123_456_789n)).toBe('Wallet balance: 1.23456789\n');
    expect(formatBalance(10_000_000_000n * 100_000_000n)).toBe('Wallet balance: 10000000000.00000000\n');
  });

  it('lists spent and unspent records apart, each with its own total', () => {
    const recs: OutputRecord[] = [
      { txid: '11'.repeat(32), vout: 0, address: 'nA', script: '76a9', amount: 150_000_000n, height: 10, spent: true },
      { txid: '22'.repeat(32), vout: 1, address: 'nB', script: '76a9', amount: 1n, height: 12, spent: false },
      { txid: '33'.repeat(32), vout: 2, address: 'nB', script: '76a9', amount: 0n, height: 12, spent: false },
    ];
    const utxos = formatUtxos(recs, 12);
    expect(utxos.split(`${SEPARATOR}\nUnspent UTXO:\n`).length).toBe(3);
    expect(utxos).not.toContain('11'.repeat(32));
    expect(utxos).toContain('confirmations:  1\nspendable:      1\nsolvable:       1\n');
    expect(
      utxos.endsWith('amount:         0.00000000\nconfirmations:  1\nspendable:      1\nsolvable:       1\nTotal Unspent: 0.00000001\n'),
    ).toBe(true);
    const spent = formatSpent(recs, 12);
    expect(spent).toBe(
      `${SEPARATOR}\ntxid:           ${'11'.repeat(32)}\nvout:           0\naddress:        nA\nscript_pubkey:  76a9\namount:         1.50000000\n` +
        'confirmations:  3\nspendable:      0\nsolvable:       1\nSpent Balance: 1.50000000\n',
    );
  });

  it('prints empty listings as their total alone', () => {
    expect(formatUtxos([], 0)).toBe('Total Unspent: 0.00000000\n');
    expect(formatSpent([], 0)).toBe('Spent Balance: 0.00000000\n');
    expect(formatAddresses([])).toBe('');
  });

  it('counts confirmations from the tip and never below zero', () => {
    expect(confirmations(100, 100)).toBe(1);
    expect(confirmations(90, 100)).toBe(11);
    expect(confirmations(101, 100)).toBe(0); // mid-reorg: the tip moved below the output
    expect(confirmations(null, 100)).toBe(0);
  });

  it('formats the local time as YYYY-MM-DD HH:MM:SS', () => {
    expect(formatTimestamp(new Date(2024, 9, 26, 15, 30, 0))).toBe('2024-10-26 15:30:00\n');
    expect(formatTimestamp(new Date(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 03:04:05\n');
  });
});
