// The readiness decision (docs/operations.md#readiness): every combination of the conditions, the localhost
// rule, and the words shown to the operator and to the cashier.
import { describe, expect, it } from 'vitest';
import {
  assessReadiness,
  cashierExplanation,
  isLocalHost,
  readinessChecklist,
  WORKER_SILENT_SEC,
  type ReadinessFacts,
} from '@/lib/readiness';

const NETWORKS = ['mainnet', 'testnet', 'regtest'] as const;
const BACKENDS = ['spv', 'rpc', 'devnet'] as const;
const WALLETS = ['ok', 'none', 'invalid'] as const;
const URLS = [
  { url: 'https://pay.shop.example', https: true, local: false },
  { url: 'http://pay.shop.example', https: false, local: false },
  { url: 'https://localhost:3000', https: true, local: true },
  { url: 'http://127.0.0.1:3000', https: false, local: true },
] as const;

describe('assessReadiness: every combination', () => {
  const cases: { facts: ReadinessFacts; expected: string[] }[] = [];
  for (const network of NETWORKS)
    for (const backend of BACKENDS)
      for (const wallet of WALLETS)
        for (const peers of [0, 1, 8])
          for (const synced of [true, false])
            for (const u of URLS) {
              const facts: ReadinessFacts = {
                network,
                backend,
                publicUrl: u.url,
                dbReachable: true,
                wallet,
                chain: { synced, peers, tip: 1234 },
              };
              // The rule as docs/operations.md#readiness states it, written out independently of the implementation.
              const expected: string[] = [];
              if (wallet === 'none') expected.push('no_wallet');
              if (wallet === 'invalid') expected.push('wallet_invalid');
              if (peers === 0) expected.push(backend === 'rpc' ? 'rpc_unreachable' : 'no_peers');
              if (!synced) expected.push('not_synced');
              if (network === 'mainnet' && !u.https) expected.push('public_url_not_https');
              if (network === 'mainnet' && u.local) expected.push('public_url_localhost');
              cases.push({ facts, expected });
            }

  it(`decides ${cases.length} combinations of wallet, peers/rpc, sync, network and PUBLIC_URL`, () => {
    expect(cases.length).toBe(3 * 3 * 3 * 3 * 2 * 4);
    for (const { facts, expected } of cases) {
      const r = assessReadiness(facts);
      expect(r.problems.map((p) => p.code).sort(), JSON.stringify(facts)).toEqual([...expected].sort());
      expect(r.ready, JSON.stringify(facts)).toBe(expected.length === 0);
      for (const p of r.problems) expect(p.message.length).toBeGreaterThan(20);
    }
    // Both sides are represented.
    expect(cases.filter((c) => c.expected.length === 0).length).toBeGreaterThan(0);
  });

  it('is not ready when the database is unreachable, and then judges only what needs no database', () => {
    for (const network of NETWORKS) {
      const r = assessReadiness({
        network,
        backend: 'spv',
        publicUrl: 'https://pay.shop.example',
        dbReachable: false,
        wallet: 'unknown',
        chain: null,
      });
      expect(r).toEqual({ ready: false, problems: [expect.objectContaining({ code: 'db_unreachable' })] });
    }
    const r = assessReadiness({
      network: 'mainnet',
      backend: 'spv',
      publicUrl: 'http://localhost:3000',
      dbReachable: false,
      wallet: 'unknown',
      chain: null,
    });
    expect(r.problems.map((p) => p.code)).toEqual(['db_unreachable', 'public_url_not_https', 'public_url_localhost']);
  });

  it('a chain worker silent for over 2 minutes is a problem of its own, whatever it last said', () => {
    const facts = (silentSec: number | undefined): ReadinessFacts => ({
      network: 'testnet',
      backend: 'spv',
      publicUrl: 'http://localhost:3000',
      dbReachable: true,
      wallet: 'ok',
      chain: { synced: true, peers: 4, tip: 10, silentSec },
    });
    expect(assessReadiness(facts(undefined)).ready).toBe(true);
    expect(assessReadiness(facts(5)).ready).toBe(true);
    expect(assessReadiness(facts(WORKER_SILENT_SEC)).ready).toBe(true);
    const r = assessReadiness(facts(WORKER_SILENT_SEC + 180));
    expect(r.problems.map((p) => p.code)).toEqual(['worker_silent']);
    expect(r.problems[0].message).toMatch(/not reported for 5 minutes/);
    expect(readinessChecklist(r.problems, 'testnet').find((i) => i.id === 'sync')!.done).toBe(false);
    expect(cashierExplanation(['worker_silent'])).toMatch(/lost track.*Ask the owner/);
  });

  it('a ready mainnet store: https, a public host, a wallet, peers and a synced chain', () => {
    expect(
      assessReadiness({
        network: 'mainnet',
        backend: 'spv',
        publicUrl: 'https://pay.shop.example/counter',
        dbReachable: true,
        wallet: 'ok',
        chain: { synced: true, peers: 3, tip: 5_000_000 },
      }),
    ).toEqual({ ready: true, problems: [] });
  });

  it('words the problems for an operator, naming what to change', () => {
    const r = assessReadiness({
      network: 'mainnet',
      backend: 'rpc',
      publicUrl: 'http://localhost:3000',
      dbReachable: true,
      wallet: 'none',
      chain: { synced: false, peers: 0, tip: 42 },
    });
    const msg = Object.fromEntries(r.problems.map((p) => [p.code, p.message]));
    expect(msg.no_wallet).toMatch(/STORE_XPUB/);
    expect(msg.rpc_unreachable).toMatch(/DOGE_RPC_URL/);
    expect(msg.not_synced).toMatch(/block 42/);
    expect(msg.public_url_not_https).toMatch(/https:\/\//);
    expect(msg.public_url_localhost).toMatch(/localhost/);
  });
});

describe('isLocalHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'shop.localhost',
    'a.b.localhost',
    '127.0.0.1',
    '127.1.2.3',
    '127.255.255.255',
    '::1',
    '[::1]',
    '0.0.0.0',
    '[::]',
    '[::ffff:7f00:1]',
    '::ffff:127.0.0.1',
  ])('%s is this machine', (h) => expect(isLocalHost(h)).toBe(true));
  it.each([
    'shop.example',
    'localhost.shop.example',
    'mylocalhost',
    '128.0.0.1',
    '10.0.0.1',
    '[2001:db8::1]',
    '[::ffff:a00:1]',
    '1.127.0.0',
  ])('%s is not', (h) => expect(isLocalHost(h)).toBe(false));
  it('judges the host of PUBLIC_URL as the URL parser sees it', () => {
    for (const url of ['https://[::1]:8443', 'https://127.000.000.001', 'https://0x7f000001', 'https://LocalHost', 'https://0.0.0.0'])
      expect(
        assessReadiness({
          network: 'mainnet',
          backend: 'spv',
          publicUrl: url,
          dbReachable: true,
          wallet: 'ok',
          chain: { synced: true, peers: 1, tip: 1 },
        }).problems.map((p) => p.code),
        url,
      ).toEqual(['public_url_localhost']);
  });
});

describe('what the cashier and the checklist see', () => {
  it("explains in a cashier's words, and says to ask the owner", () => {
    expect(cashierExplanation(['no_wallet'])).toBe("Counter can't take payments yet: no receiving wallet is set up. Ask the owner.");
    expect(cashierExplanation(['public_url_not_https', 'public_url_localhost', 'no_peers'])).toBe(
      "Counter can't take payments yet: its web address is not set up for real payments; it is not connected to the Dogecoin network. Ask the owner.",
    );
    expect(cashierExplanation(['not_synced'])).toMatch(/still catching up.*wait a few minutes/);
    expect(cashierExplanation(['something_new'])).toBe("Counter can't take payments yet. Ask the owner.");
  });

  it('ticks the checklist items that hold and lists the problems under the others', () => {
    const r = assessReadiness({
      network: 'mainnet',
      backend: 'spv',
      publicUrl: 'http://localhost:3000',
      dbReachable: true,
      wallet: 'ok',
      chain: { synced: false, peers: 0, tip: 0 },
    });
    const items = readinessChecklist(r.problems, 'mainnet');
    expect(items.map((i) => [i.id, i.done])).toEqual([
      ['wallet', true],
      ['network', false],
      ['sync', false],
      ['database', true],
      ['public_url', false],
    ]);
    expect(items.find((i) => i.id === 'public_url')!.problems.map((p) => p.code)).toEqual(['public_url_not_https', 'public_url_localhost']);
    expect(items.find((i) => i.id === 'wallet')!.href).toBe('/admin/settings');
    expect(items.find((i) => i.id === 'network')!.href).toBe('/admin/node');
    expect(items.find((i) => i.id === 'public_url')!.href).toBeNull();
    expect(readinessChecklist([], 'mainnet').every((i) => i.done && i.problems.length === 0)).toBe(true);
    expect(readinessChecklist([], 'testnet').map((i) => i.id)).toEqual(['wallet', 'network', 'sync', 'database']);
  });
});
