// The wallet check (docs/wallet-check.md) on the devnet backend, in process on PGlite: the relay's
// /dc, /pay and /status reached through a fetch that calls exactly what their route handlers call
// (lib/relay with the check's port), and the chain worker's tick for what a wallet broadcasts
// itself. lib/wallet passes every case; each wallet broken on purpose fails exactly its cases;
// nothing of a run reaches the store; the 30 s refuse window and the throttle run on an injected
// clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db } from '@/lib/db';
import { REGTEST } from '@/lib/doge';
import { openTestDb } from '../helpers/stores';
import { testXpub } from '../helpers/keys';
import { activeRelayKey } from '@/lib/payments/creation/relay-key';
import { createDevnetBackend, type DevnetBackend } from '@/lib/chain/devnet/backend';
import { workerTick } from '@/lib/worker';
import {
  CASE_NAMES,
  checkEnvelope,
  createRun,
  runReport,
  walletCheckRelay,
  type RelayPortContext,
  type RunReport,
} from '@/lib/wallet-check';
import { FAILS, flawedWallet, relayRoutesFetch, sdkWallet, type Coins, type Flaw, type WalletEnv } from '../helpers/check-wallets';
import type { WalletUtxo } from '@/lib/wallet';

const URL_BASE = 'http://127.0.0.1:1';
let db: Db;
let chain: DevnetBackend;
let dir: string;
let check: RelayPortContext;
const spent = new Set<string>();

const relayFetch = (ua: string) => relayRoutesFetch(db, chain, check, ua);

function coins(): Coins {
  const w = chain.demoWallet();
  return {
    network: 'regtest',
    wif: w.wif,
    next(): WalletUtxo {
      const u = chain
        .demoWallet()
        .utxos.filter((x) => !spent.has(`${x.txid}:${x.vout}`) && x.amount >= 200_00000000n)
        .sort((a, b) => (a.amount > b.amount ? -1 : 1))[0];
      if (!u) throw new Error('no coin left');
      return { txid: u.txid, vout: u.vout, amount: u.amount, script: u.script };
    },
    spend: (u) => void spent.add(`${u.txid}:${u.vout}`),
  };
}

const env = (ua: string): WalletEnv => ({
  fetch: relayFetch(ua),
  coins: coins(),
  broadcast: async (hex) => {
    const r = await chain.broadcast(hex);
    if (!r.ok) throw new Error(r.reason);
  },
});

/** Runs every case of a fresh run through `pay`, lets the worker see the chain, finishes: the report. */
async function runWith(pay: (uri: string, env: WalletEnv) => Promise<unknown>, ua: string): Promise<RunReport> {
  const made = await createRun(check, '198.51.100.' + Math.floor(Math.random() * 200));
  if (!made.ok) throw new Error('throttled');
  const start = (await runReport(check, made.runId))!;
  const e = env(ua);
  for (const c of start.cases) await pay(c.uri, e);
  await workerTick({ db, network: REGTEST, chain, publicUrl: URL_BASE });
  await chain.mine(1);
  await workerTick({ db, network: REGTEST, chain, publicUrl: URL_BASE });
  return (await runReport(check, made.runId, { finish: true }))!;
}

const failed = (r: RunReport) => r.cases.filter((c) => c.result === 'fail').map((c) => c.name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'counter-wallet-check-'));
  db = await openTestDb();
  await db.prisma.store.upsert({ where: { id: 1 }, update: { storeXpub: testXpub(13) }, create: { id: 1, storeXpub: testXpub(13) } });
  await activeRelayKey(db, 1);
  chain = createDevnetBackend({ network: REGTEST, dir: join(dir, 'devnet'), blockSeconds: 0 });
  await chain.start();
  check = { db, network: REGTEST, chain, dataDir: dir, publicUrl: URL_BASE };
}, 60_000);
afterAll(async () => {
  await chain?.stop();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the wallet check (devnet)', () => {
  it('lib/wallet passes every case, and the report names the user agent', async () => {
    const r = await runWith(sdkWallet, 'counter-wallet-sdk/1 (test)');
    expect(r.cases.map((c) => c.name)).toEqual([...CASE_NAMES]);
    expect(r.cases.filter((c) => c.result !== 'pass')).toEqual([]);
    expect(r.user_agents).toEqual(['counter-wallet-sdk/1 (test)']);
    expect(r.cases.find((c) => c.name === 'plain')!.detail).toMatch(/^paid through the relay: accepted \(txid [0-9a-f]{64}\)$/);
    expect(r.cases.find((c) => c.name === 'short_h')!.detail).toMatch(/without fetching/);
    expect(r.cases.find((c) => c.name === 'altered_signature')!.detail).toMatch(/fetched the envelope/);
  }, 120_000);

  for (const flaw of Object.keys(FAILS) as Flaw[]) {
    it(`a wallet that ${flaw.replace(/_/g, ' ')} fails exactly ${FAILS[flaw].join(', ')}`, async () => {
      const r = await runWith((uri, e) => flawedWallet(flaw, uri, e), `broken/${flaw}`);
      expect(failed(r)).toEqual(FAILS[flaw]);
      for (const c of r.cases.filter((x) => FAILS[flaw].includes(x.name))) {
        if (flaw === 'broadcasts') expect(c.detail).toMatch(/^broadcast by the wallet, never submitted to the relay/);
        else if (flaw === 'drops_data') expect(c.detail).toMatch(/^the relay refused the submission: invalid_outputs: .*OP_RETURN/);
        else expect(c.detail).toMatch(/^submitted to the relay: .*protocol §/);
      }
    }, 120_000);
  }

  it('keeps every check payment out of the store', async () => {
    const addresses = (await db.query<{ address: string }>(`SELECT address FROM wallet_check_case`)).map((a) => a.address);
    expect(addresses.length).toBeGreaterThan(100);
    expect(await db.prisma.payment.count()).toBe(0);
    expect(await db.query(`SELECT 1 FROM vendor_event`)).toEqual([]);
    expect(await db.query(`SELECT 1 FROM wallet_address WHERE address = ANY($1::text[])`, [addresses])).toEqual([]);
    expect(await db.query(`SELECT 1 FROM wallet_output WHERE address = ANY($1::text[])`, [addresses])).toEqual([]);
    // The check's key: its own file, private, and never a store's relay key.
    expect(statSync(join(dir, 'wallet-check.key')).mode & 0o077).toBe(0);
    const relayKey = (await activeRelayKey(db, 1)).pubkey;
    const envelope = JSON.parse(
      (await checkEnvelope(check, (await db.query<{ id: string }>(`SELECT id FROM wallet_check_case LIMIT 1`))[0].id, 'x'))!,
    );
    expect(envelope.pubkey).not.toBe(relayKey);
    expect(readFileSync(join(dir, 'wallet-check.key'), 'utf8')).not.toContain(envelope.pubkey);
  });
});

describe('time decides refuse cases (injected clock)', () => {
  it('a fetched refuse case passes 30 s after its fetch; at finish unfetched ones pass and unpaid pay cases fail', async () => {
    let now = new Date('2031-01-01T00:00:00Z');
    const timed: RelayPortContext = { ...check, now: () => now };
    const made = await createRun(timed, '203.0.113.9');
    if (!made.ok) throw new Error('throttled');
    const cases = (await runReport(timed, made.runId))!.cases;
    const sig = cases.find((c) => c.name === 'altered_signature')!;
    await checkEnvelope(timed, sig.id, 'clock-test');
    now = new Date(now.getTime() + 29_999);
    expect((await runReport(timed, made.runId))!.cases.find((c) => c.id === sig.id)!.result).toBe('pending');
    now = new Date(now.getTime() + 1);
    const r = (await runReport(timed, made.runId))!;
    expect(r.cases.find((c) => c.id === sig.id)).toMatchObject({
      result: 'pass',
      detail: 'refused: fetched the envelope and paid nothing within 30 s',
    });
    expect(r.cases.filter((c) => c.result === 'pending')).toHaveLength(CASE_NAMES.length - 1);
    const fin = (await runReport(timed, made.runId, { finish: true }))!;
    for (const c of fin.cases) {
      if (c.id === sig.id) continue;
      expect(c).toMatchObject(
        c.expect === 'pay'
          ? { result: 'fail', detail: 'never paid' }
          : { result: 'pass', detail: expect.stringMatching(/without fetching/) },
      );
    }
    expect(fin.finished_at).toBe(now.toISOString());
    // A finished run takes no more submissions, and its report no longer changes.
    const again = await walletCheckRelay(timed, 'late').submit({ id: cases[0].id, tx: '00' });
    expect(again).toMatchObject({ status: 400, body: { error: 'expired' } });
  });

  it('at most 10 runs a minute per client, then the wait until one leaves the window', async () => {
    let now = new Date('2032-01-01T00:00:00Z');
    const timed: RelayPortContext = { ...check, now: () => now };
    for (let i = 0; i < 10; i++) {
      expect((await createRun(timed, '192.0.2.77')).ok).toBe(true);
      now = new Date(now.getTime() + 1000);
    }
    expect(await createRun(timed, '192.0.2.77')).toEqual({ ok: false, retryAfterSec: 50 });
    expect((await createRun(timed, '192.0.2.78')).ok).toBe(true);
    now = new Date(now.getTime() + 50_000);
    expect((await createRun(timed, '192.0.2.77')).ok).toBe(true);
    // A day later the old runs are gone, cases and all.
    now = new Date(now.getTime() + 24 * 3600_000 + 1);
    expect((await createRun(timed, '192.0.2.77')).ok).toBe(true);
    expect(
      Number(
        (
          await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM wallet_check_run WHERE created_at < $1`, [
            new Date(now.getTime() - 24 * 3600_000),
          ])
        )[0].n,
      ),
    ).toBe(0);
  });
});
