// The spv header store (lib/chain/spv/headers.ts) on PGlite: real mainnet headers (AuxPoW
// included) from a checkpoint, corrupted proofs and links rejected, and most-work selection
// with reorgs on headers mined here at the regtest target.
import { fixturePath } from '../helpers/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { type Db } from '@/lib/db';
import { openTestDb } from '../helpers/stores';
import {
  MAINNET,
  REGTEST,
  fromHex,
  headerWork,
  makeHeader,
  parseHeadersMessage,
  encodeHeadersMessage,
  hashMeetsTarget,
  powHash,
  type HeaderEntry,
} from '@/lib/doge';
import { HeaderChain, HeaderRejected } from '@/lib/chain/spv/headers';

const fx: { height: number; hash: string; hex: string; prev_hash: string; format: string; bits: string }[] = JSON.parse(
  readFileSync(fixturePath('doge-mainnet-headers.json'), 'utf8'),
).entries;
const byHeight = (h: number) => fx.find((e) => e.height === h)!;
const message = (heights: number[]): HeaderEntry[] =>
  parseHeadersMessage(encodeHeadersMessage(heights.map((h) => fromHex(byHeight(h).hex))));

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
beforeEach(async () => {
  await db.query('DELETE FROM chain_header');
});
afterAll(async () => db.close());

const rows = () =>
  db.query<{ hash: string; height: number; chainwork: string; in_best: boolean }>(
    `SELECT hash, height, chainwork::text AS chainwork, in_best FROM chain_header ORDER BY height, hash`,
  );

describe('mainnet headers', () => {
  it('syncs genesis..10 from the genesis checkpoint with real chainwork', async () => {
    const chain = new HeaderChain(db, MAINNET, { height: 0, hash: MAINNET.genesisHash });
    const r = await chain.accept(message([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    expect(r).toMatchObject({ added: 10, advanced: true, disconnected: 0 });
    expect(chain.tip).toMatchObject({ height: 10, hash: byHeight(10).hash });
    const stored = await rows();
    expect(stored.map((s) => s.height)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const work = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].reduce((w, h) => w + headerWork(parseInt(byHeight(h).bits, 16)), 0n);
    expect(BigInt(stored.at(-1)!.chainwork)).toBe(work);
    expect(stored.every((s) => s.in_best)).toBe(true);
    // Resume: a new instance over the same table starts at the stored tip.
    const again = new HeaderChain(db, MAINNET, { height: 0, hash: MAINNET.genesisHash });
    await again.load();
    expect(again.tip).toMatchObject({ height: 10, work });
    expect((await again.locator()).at(-1)).toBe(MAINNET.genesisHash);
  });

  it('accepts AuxPoW headers from a checkpoint across the merge-mining start (371336-371337) and at 400000-400002', async () => {
    const a = new HeaderChain(db, MAINNET, { height: 371335, hash: byHeight(371336).prev_hash });
    expect((await a.accept(message([371336, 371337]))).added).toBe(2);
    expect(a.tip.hash).toBe(byHeight(371337).hash);
    const b = new HeaderChain(db, MAINNET, { height: 399999, hash: byHeight(400000).prev_hash });
    expect((await b.accept(message([400000, 400001, 400002]))).added).toBe(3);
    expect(b.tip).toMatchObject({ height: 400002, hash: byHeight(400002).hash });
  });

  it('rejects a corrupted AuxPoW proof, a broken link and a checkpoint mismatch, storing nothing', async () => {
    const chain = new HeaderChain(db, MAINNET, { height: 399999, hash: byHeight(400000).prev_hash });
    const hex = byHeight(400001).hex;
    const bad = fromHex(hex);
    bad[bad.length - 1] ^= 0x01; // the parent header's nonce: its scrypt no longer meets the target
    const corrupted = parseHeadersMessage(encodeHeadersMessage([fromHex(byHeight(400000).hex), bad]));
    await expect(chain.accept(corrupted)).rejects.toThrow(HeaderRejected);
    await expect(chain.accept(message([400000, 400002]))).rejects.toThrow(/does not link/);
    expect(await rows()).toEqual([]);
    // Height 145000 is a built-in checkpoint: another header there is refused.
    const cp = new HeaderChain(db, MAINNET, { height: 144999, hash: byHeight(151557).prev_hash });
    await expect(cp.accept(message([151557]))).rejects.toThrow(/checkpoint/);
  });

  it('ignores a batch that connects to nothing known', async () => {
    const chain = new HeaderChain(db, MAINNET, { height: 0, hash: MAINNET.genesisHash });
    expect((await chain.accept(message([400001, 400002]))).added).toBe(0);
    expect(await rows()).toEqual([]);
  });
});

describe('most-work chain and reorgs (regtest headers mined here)', () => {
  function mine(prevHash: string, n: number, salt: number): HeaderEntry[] {
    const out: HeaderEntry[] = [];
    for (let i = 0; i < n; i++) {
      for (let nonce = 0; ; nonce++) {
        const h = makeHeader({
          version: 0x00620004,
          prevHash,
          merkleRoot: (salt * 1000 + i).toString(16).padStart(64, '0'),
          time: 1_700_000_000 + i,
          bits: 0x207fffff,
          nonce,
        });
        if (hashMeetsTarget(powHash(h.raw), h.bits, REGTEST.powLimit)) {
          out.push({ header: h });
          prevHash = h.hash;
          break;
        }
      }
    }
    return out;
  }

  it('keeps the first of two equal branches, switches to a longer one, and flips in_best atomically', async () => {
    const chain = new HeaderChain(db, REGTEST, null);
    const base = mine(REGTEST.genesisHash, 2, 1);
    await chain.accept(base);
    const a = mine(base[1]!.header.hash, 2, 2);
    const b = mine(base[1]!.header.hash, 3, 3);
    expect((await chain.accept(a)).advanced).toBe(true);
    const tie = await chain.accept(b.slice(0, 2));
    expect(tie).toMatchObject({ added: 2, advanced: false });
    expect(chain.tip.hash).toBe(a[1]!.header.hash);
    const r = await chain.accept(b.slice(2));
    expect(r).toMatchObject({ added: 1, advanced: true, disconnected: 2 });
    expect(chain.tip).toMatchObject({ height: 5, hash: b[2]!.header.hash, work: 6n * headerWork(0x207fffff) });
    const stored = await rows();
    expect(stored).toHaveLength(7);
    const best = stored.filter((s) => s.in_best).map((s) => s.hash);
    expect(best).toEqual([...base, ...b].map((e) => e.header.hash));
    expect(await chain.hashAt(3)).toBe(b[0]!.header.hash);
    // A stale header that does not meet its target is refused.
    const weak = makeHeader({ ...b[2]!.header, prevHash: b[2]!.header.hash, bits: 0x1d00ffff });
    await expect(chain.accept([{ header: weak }])).rejects.toThrow(HeaderRejected);
  });

  it('switches to a heavier branch that arrives in one headers message (it overlaps the old branch’s heights)', async () => {
    // Dogecoin Core announces a reorg's new blocks together: heights 3 and 4 of the new branch
    // were written while heights 3 and 4 of the old one still held in_best.
    const chain = new HeaderChain(db, REGTEST, null);
    const base = mine(REGTEST.genesisHash, 2, 4);
    await chain.accept(base);
    const old = mine(base[1]!.header.hash, 2, 5);
    await chain.accept(old);
    const heavier = mine(base[1]!.header.hash, 3, 6);
    const r = await chain.accept(heavier);
    expect(r).toMatchObject({ added: 3, advanced: true, disconnected: 2 });
    expect(chain.tip).toMatchObject({ height: 5, hash: heavier[2]!.header.hash });
    const best = (await rows()).filter((s) => s.in_best);
    expect(best.map((s) => s.hash)).toEqual([...base, ...heavier].map((e) => e.header.hash));
    expect(best.map((s) => s.height)).toEqual([1, 2, 3, 4, 5]);
    // And back: the old branch, extended past the new one, wins again in one message.
    const back = mine(old[1]!.header.hash, 2, 7);
    expect(await chain.accept([...old, ...back])).toMatchObject({ added: 2, advanced: true, disconnected: 3 });
    const again = (await rows()).filter((s) => s.in_best).map((s) => s.hash);
    expect(again).toEqual([...base, ...old, ...back].map((e) => e.header.hash));
    // A reload reads the same best chain.
    const reloaded = new HeaderChain(db, REGTEST, null);
    await reloaded.load();
    expect(reloaded.tip.hash).toBe(back[1]!.header.hash);
  });
});
