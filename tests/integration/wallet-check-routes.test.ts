// The wallet check's routes on a running app (docs/wallet-check.md#routes), devnet backend: a run's
// 201 body, the report and its finish, the user agents of the requests that fetched envelopes and
// submitted to /relay/pay, lib/wallet paying a pay case over HTTP, the relay refusing a refuse
// case's submission, 404 for unknown ids, and the per-client throttle's 429 with Retry-After.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKoinu } from '@/lib/money';
import { payUri, type WalletUtxo } from '@/lib/wallet';
import { testXpub } from '../helpers/keys';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import type { DemoUtxoJson } from '../helpers/json-shapes';

let app: AppServer;
const dataDir = mkdtempSync(join(tmpdir(), 'counter-wallet-check-routes-'));

/** fetch with the wallet under test's User-Agent. */
const asWallet = (ua: string): typeof fetch =>
  ((input: RequestInfo | URL, init: RequestInit = {}) =>
    fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'User-Agent': ua } })) as typeof fetch;

beforeAll(async () => {
  app = await startApp(devnetAppEnv({ STORE_XPUB: testXpub(14) }), { keepDataDir: dataDir });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('wallet check routes', () => {
  it('starts a run, records what the wallet did, and finishes with the report', async () => {
    const r = await fetch(`${app.url}/api/wallet-check/runs`, { method: 'POST' });
    expect(r.status).toBe(201);
    const run = await r.json();
    expect(run.report_url).toBe(`${app.url}/wallet-check?run=${run.id}`);
    expect(run.cases).toHaveLength(14);
    for (const c of run.cases) expect(Object.keys(c).sort()).toEqual(['expect', 'id', 'name', 'uri']);
    expect(new Set(run.cases.map((c: { uri: string }) => c.uri.match(/^dogecoin:(\w+)/)?.[1]).filter(Boolean)).size).toBe(13);

    const w = await (await fetch(app.url + '/demo/api/wallet')).json();
    const utxos: WalletUtxo[] = w.utxos.map((u: DemoUtxoJson) => ({
      txid: u.txid,
      vout: u.vout,
      amount: parseKoinu(u.amount),
      script: u.script,
    }));
    const plain = run.cases.find((c: { name: string }) => c.name === 'plain');
    const paid = await payUri(plain.uri, { allowHttp: true, fetch: asWallet('TestWallet/2.1'), network: 'regtest', utxos, keys: [w.wif] });
    expect(paid.submitted).toMatchObject({ id: plain.id, status: 'accepted', txid: paid.tx.txid });

    const forged = run.cases.find((c: { name: string }) => c.name === 'bad_version');
    const pay = await fetch(`${app.url}/relay/pay`, {
      method: 'POST',
      headers: { 'User-Agent': 'Forger/1' },
      body: JSON.stringify({ id: forged.id, tx: paid.tx.hex }),
    });
    expect(pay.status).toBe(400);
    expect((await pay.json()).error).toBe('invalid_tx');

    const report = await (await fetch(`${app.url}/api/wallet-check/runs/${run.id}`)).json();
    expect(report).toMatchObject({ id: run.id, user_agents: ['TestWallet/2.1', 'Forger/1'] });
    expect(report.cases.find((c: { name: string }) => c.name === 'plain')).toMatchObject({ result: 'pass' });
    expect(report.cases.find((c: { name: string }) => c.name === 'bad_version')).toMatchObject({
      result: 'fail',
      detail: expect.stringMatching(/^submitted to the relay: .*version/),
    });
    const status = await (await fetch(`${app.url}/relay/status`, { method: 'POST', body: JSON.stringify({ id: plain.id }) })).json();
    expect(status).toMatchObject({ id: plain.id, status: 'accepted', txid: paid.tx.txid });

    const fin = await fetch(`${app.url}/api/wallet-check/runs/${run.id}/finish`, { method: 'POST' });
    expect(fin.status).toBe(200);
    const done = await fin.json();
    expect(done.cases.filter((c: { result: string }) => c.result === 'pending')).toEqual([]);
    expect(done.cases.find((c: { name: string }) => c.name === 'double_fee')).toMatchObject({ result: 'fail', detail: 'never paid' });
    // Nothing of the run is a payment of the store.
    const listed = await fetch(`${app.url}/relay/status`, { method: 'POST', body: JSON.stringify({ id: forged.id }) });
    expect(await listed.json()).toEqual({ id: forged.id, status: 'unpaid' });
  }, 60_000);

  it('answers 404 for unknown runs and cases', async () => {
    expect((await fetch(`${app.url}/api/wallet-check/runs/wcr_nope`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/wallet-check/runs/wcr_nope/finish`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${app.url}/api/wallet-check/runs/%00`)).status).toBe(404);
    expect((await fetch(`${app.url}/dc/wc_nope`)).status).toBe(404);
  });

  it('throttles a client to 10 runs a minute with Retry-After', async () => {
    const codes: number[] = [];
    let retry: string | null = null;
    for (let i = 0; i < 11; i++) {
      const r = await fetch(`${app.url}/api/wallet-check/runs`, { method: 'POST' });
      codes.push(r.status);
      if (r.status === 429) retry = r.headers.get('Retry-After');
    }
    // One run was started by the first test in this minute.
    expect(codes.filter((c) => c === 201).length).toBeLessThanOrEqual(10);
    expect(codes.at(-1)).toBe(429);
    expect(Number(retry)).toBeGreaterThanOrEqual(1);
    expect(Number(retry)).toBeLessThanOrEqual(60);
  }, 60_000);
});
