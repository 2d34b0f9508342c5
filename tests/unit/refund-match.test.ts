// The refund matching rule (lib/payments/refund-match.ts, docs/security.md "Which transaction pays a
// refund") against the cases in tests/fixtures/refund-match-vectors.json.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REGTEST } from '@/lib/doge';
import { refundPaidBy, spenderHash, whyNot, type MatchTx, type RefundCandidate } from '@/lib/payments/refund-match';
import { FirstSeen } from '@/lib/payments/first-seen';

interface RawRefund {
  id: string;
  address: string;
  amount: string;
  status: string;
  createdAt: string;
  seq: string;
  spent: string[];
}
interface RawTx {
  txid: string;
  firstSeen: string;
  submittedFor: string | null;
  inputs: { prevout: string; scriptSig?: string }[];
  outputs: { script: string; value: string }[];
}
interface Vector {
  name: string;
  candidates: string[];
  tx: RawTx;
  expect: string | null;
  why?: { id: string; contains: string };
}
const file = JSON.parse(readFileSync(join(__dirname, '../fixtures/refund-match-vectors.json'), 'utf8')) as {
  refunds: Record<string, RawRefund>;
  vectors: Vector[];
};

const refund = (r: RawRefund): RefundCandidate => ({
  ...r,
  amount: BigInt(r.amount),
  createdAt: new Date(r.createdAt),
  seq: BigInt(r.seq),
});
const tx = (t: RawTx): MatchTx => ({
  ...t,
  firstSeen: new Date(t.firstSeen),
  outputs: t.outputs.map((o) => ({ script: o.script, value: BigInt(o.value) })),
});

describe('which refund a tx pays (vectors)', () => {
  it('has the cases the issue names', () => {
    expect(file.vectors.length).toBeGreaterThanOrEqual(25);
    expect(file.vectors.filter((v) => /^\((a|b|c)\)/.test(v.name)).length).toBeGreaterThanOrEqual(4);
  });
  for (const v of file.vectors) {
    it(v.name, () => {
      const cands = v.candidates.map((k) => refund(file.refunds[k]!));
      expect(refundPaidBy(tx(v.tx), cands, REGTEST)?.id ?? null).toBe(v.expect);
      // The order the candidates come in never matters.
      expect(refundPaidBy(tx(v.tx), [...cands].reverse(), REGTEST)?.id ?? null).toBe(v.expect);
      if (v.why) expect(whyNot(tx(v.tx), refund(file.refunds[v.why.id]!), REGTEST)?.message).toContain(v.why.contains);
    });
  }
});

describe('spenderHash', () => {
  it('reads HASH160 of the last push of a push-only scriptSig, and nothing else', () => {
    expect(spenderHash('0101' + '02' + 'abcd')).toMatch(/^[0-9a-f]{40}$/);
    expect(spenderHash(undefined)).toBeNull();
    expect(spenderHash('')).toBeNull();
    expect(spenderHash('00')).toBeNull(); // OP_0 only: pushes nothing
    expect(spenderHash('0101' + '61')).toBeNull(); // OP_NOP: not push-only
    expect(spenderHash('4c')).toBeNull(); // truncated
    expect(spenderHash('zz')).toBeNull();
  });
});

describe('FirstSeen', () => {
  it('keeps the first sighting of a tx, and forgets the oldest beyond its cap', () => {
    const s = new FirstSeen(2);
    const t = (m: number) => new Date(Date.UTC(2026, 10, 27, 9, m));
    s.note(['a'], t(1));
    s.note(['a', 'b'], t(2));
    expect(s.firstSeen('a', t(9))).toEqual(t(1));
    expect(s.firstSeen('b', t(9))).toEqual(t(2));
    expect(s.firstSeen('c', t(9))).toEqual(t(9)); // never seen: now
    s.note(['c'], t(3));
    expect(s.firstSeen('a', t(9))).toEqual(t(9)); // evicted
    expect(s.firstSeen('b', t(9))).toEqual(t(2));
  });
});
