// The devnet chain backend: real header and tx formats, proof of work, input and signature
// checks, funding of the demo wallet, mining on request, persistence across restarts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  MAINNET,
  REGTEST,
  checkHeader,
  parseBlock,
  checkBlockMerkleRoot,
  parseHeaderEntry,
  pubkeyToAddress,
  parseTx,
  encodeTx,
  toHex,
  sha256d,
  hashToHex,
} from '../../lib/doge';
import { createDevnetBackend, asDevnet } from '../../lib/chain/devnet/backend';
import { DEVNET_BITS } from '../../lib/chain/devnet/chain';
import { buildPaymentTx } from '../../lib/wallet';
import { ConnectPaymentSchema } from '../../lib/connect';
import { loadConfig } from '../../lib/config';
import { createChainBackend } from '../../lib/chain/create-backend';
import { makePayment, SHOP_ADDRESS } from '../helpers/connect-payment';

const dir = mkdtempSync(join(tmpdir(), 'devnet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open = () => createDevnetBackend({ network: REGTEST, dir, blockSeconds: 0 });
const payment = (amount = '22.05') =>
  ConnectPaymentSchema.parse(makePayment({ items: [], total: amount, outputs: [{ address: SHOP_ADDRESS, amount }] }));

describe('devnet backend', () => {
  const chain = open();

  it('starts a chain of valid headers and funds the demo wallet', async () => {
    await chain.start();
    const tip = await chain.tip();
    expect(tip.height).toBeGreaterThanOrEqual(1);
    let prev = '0'.repeat(64);
    for (let h = 0; h <= tip.height; h++) {
      const b = await chain.block((await chain.blockHashAt(h))!);
      const entry = parseHeaderEntry(b.header);
      expect(() => checkHeader(entry, REGTEST, { height: h })).not.toThrow(); // chain ID 0x62, scrypt PoW against bits
      expect(entry.header.bits).toBe(DEVNET_BITS);
      expect(entry.header.prevHash).toBe(prev);
      expect(hashToHex(sha256d(b.header))).toBe(b.hash);
      prev = b.hash;
    }
    expect(await chain.blockHashAt(tip.height + 1)).toBeNull();
    const w = chain.demoWallet();
    expect(w.address).toMatch(/^[mn]/);
    expect(w.balance).toBe(10_000n * 100_000_000n);
    expect(w.utxos).toHaveLength(10);
  });

  it('accepts a signed payment, refuses double spends, bad signatures and missing inputs, and mines it', async () => {
    const w = chain.demoWallet();
    const built = buildPaymentTx(payment(), { network: REGTEST, utxos: w.utxos, keys: [w.wif] });
    expect(await chain.broadcast(built.hex)).toEqual({ ok: true, txid: built.txid });
    expect(await chain.broadcast(built.hex)).toEqual({ ok: true, txid: built.txid }); // already known
    expect(await chain.inMempool(built.txid)).toBe(true);
    const [spent] = await chain.lookupInputs([{ txid: built.inputs[0].txid, vout: built.inputs[0].vout }]);
    expect(spent.state).toBe('spent');
    const [pays] = await chain.lookupInputs([{ txid: built.txid, vout: 0 }]);
    expect(pays).toEqual({ state: 'unspent', value: 2_205_000_000n, script: expect.any(String) });
    expect((await chain.lookupInputs([{ txid: built.txid, vout: 9 }]))[0].state).toBe('missing');

    // the same coin again, to another amount: a double spend
    const again = buildPaymentTx(payment('5'), { network: REGTEST, utxos: built.inputs, keys: [w.wif] });
    expect(await chain.broadcast(again.hex)).toMatchObject({ ok: false, code: 'double_spend' });
    // a forged signature on a fresh coin
    const fresh = chain.demoWallet().utxos.find((u) => u.txid !== built.inputs[0].txid)!;
    const good = buildPaymentTx(payment('5'), { network: REGTEST, utxos: [fresh], keys: [w.wif] });
    const tx = parseTx(good.hex);
    const sig = new Uint8Array(tx.inputs[0].scriptSig);
    sig[10] ^= 1;
    const forged = toHex(encodeTx({ ...tx, inputs: [{ ...tx.inputs[0], scriptSig: sig }] }));
    expect(await chain.broadcast(forged)).toMatchObject({ ok: false, code: 'rejected' });
    // another key cannot spend the wallet's coin
    const thief = buildPaymentTx(payment('5'), {
      network: REGTEST,
      utxos: [{ ...fresh, script: undefined, address: pubkeyToAddress(secp256k1.getPublicKey(new Uint8Array(32).fill(5), true), REGTEST) }],
      keys: [new Uint8Array(32).fill(5)],
    });
    expect(await chain.broadcast(thief.hex)).toMatchObject({
      ok: false,
      code: 'rejected',
      reason: expect.stringMatching(/public key does not match/),
    });
    const ghost = buildPaymentTx(payment('5'), { network: REGTEST, utxos: [{ ...fresh, txid: '77'.repeat(32) }], keys: [w.wif] });
    expect(await chain.broadcast(ghost.hex)).toMatchObject({ ok: false, code: 'missing_inputs' });
    expect(await chain.broadcast('00')).toMatchObject({ ok: false, code: 'rejected' });

    const before = (await chain.tip()).height;
    const [hash] = await asDevnet(chain)!.mine(1);
    const block = await chain.block(hash);
    expect(block.height).toBe(before + 1);
    expect(block.txs.map((t) => t.txid)).toContain(built.txid);
    expect(checkBlockMerkleRoot(parseBlock(await rawBlock(hash)))).toBe(true);
    expect(await chain.inMempool(built.txid)).toBe(false);
    const change = chain.demoWallet().utxos.find((u) => u.txid === built.txid);
    expect(change?.confirmations).toBe(1);
  });

  it('of broadcasts spending one coin at once, exactly one gets in (signatures are checked before the inputs)', async () => {
    const w = chain.demoWallet();
    const coin = w.utxos.find((u) => u.amount >= 100_000_000n)!;
    const txs = ['4', '5', '6', '7'].map((amount) => buildPaymentTx(payment(amount), { network: REGTEST, utxos: [coin], keys: [w.wif] }));
    const results = await Promise.all(txs.map((t) => chain.broadcast(t.hex)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.code)).toEqual(['double_spend', 'double_spend', 'double_spend']);
    const inPool = await Promise.all(txs.map((t) => chain.inMempool(t.txid)));
    expect(inPool.filter(Boolean)).toHaveLength(1);
  });

  it('accepts broadcasts in call order: a child sent right after its parent gets in', async () => {
    const w = chain.demoWallet();
    const coin = w.utxos.find((u) => u.amount >= 100_000_000n)!;
    const parent = buildPaymentTx(payment('4'), { network: REGTEST, utxos: [coin], keys: [w.wif] });
    const outs = parseTx(parent.hex).outputs;
    const vout = outs.findIndex((o) => toHex(o.script) === coin.script);
    expect(vout).toBeGreaterThanOrEqual(0);
    const change = { txid: parent.txid, vout, amount: outs[vout].value, script: coin.script };
    const child = buildPaymentTx(payment('3'), { network: REGTEST, utxos: [change], keys: [w.wif] });
    const other = buildPaymentTx(payment('2'), {
      network: REGTEST,
      utxos: [w.utxos.find((u) => u.txid !== coin.txid || u.vout !== coin.vout)!],
      keys: [w.wif],
    });
    // At once: the first check runs inline, the parent's goes to the worker, and the child has
    // none yet (its coin is the parent's): it must still wait for the parent.
    const [o, p, c] = await Promise.all([chain.broadcast(other.hex), chain.broadcast(parent.hex), chain.broadcast(child.hex)]);
    expect(o).toEqual({ ok: true, txid: other.txid });
    expect(p).toEqual({ ok: true, txid: parent.txid });
    expect(c).toEqual({ ok: true, txid: child.txid });
  });

  it('keeps the chain, the wallet key and the mempool across a restart', async () => {
    const w = chain.demoWallet();
    const pending = buildPaymentTx(payment('3'), { network: REGTEST, utxos: w.utxos, keys: [w.wif] });
    expect((await chain.broadcast(pending.hex)).ok).toBe(true);
    const tip = await chain.tip();
    await chain.stop();
    const again = open();
    await again.start();
    expect(await again.tip()).toEqual(tip);
    expect(again.demoWallet().address).toBe(w.address);
    expect(await again.inMempool(pending.txid)).toBe(true);
    await again.stop();
  });

  it('is chosen by CHAIN_BACKEND=devnet and refuses mainnet', () => {
    const cfg = loadConfig({
      CHAIN_BACKEND: 'devnet',
      DOGE_NETWORK: 'regtest',
      DATA_DIR: dir,
      DEVNET_BLOCK_SECONDS: '0',
    } as unknown as NodeJS.ProcessEnv);
    expect(asDevnet(createChainBackend(cfg))).not.toBeNull();
    expect(() => loadConfig({ CHAIN_BACKEND: 'devnet', DOGE_NETWORK: 'mainnet' } as unknown as NodeJS.ProcessEnv)).toThrow(/mainnet/);
    expect(() => createDevnetBackend({ network: MAINNET, dir, blockSeconds: 0 })).toThrow(/mainnet/);
  });
});

async function rawBlock(hash: string): Promise<string> {
  const { readFileSync } = await import('node:fs');
  const line = readFileSync(join(dir, 'blocks.hex'), 'utf8')
    .split('\n')
    .find((l) => l && hashToHex(sha256d(Buffer.from(l.slice(0, 160), 'hex'))) === hash);
  return line!;
}
