// Readiness on the real built app (docs/operations.md#readiness): a mainnet store with no wallet, no
// reachable peer and a localhost http:// PUBLIC_URL reports ready:false with each problem, the
// back office opens on the checklist, and the till's session is refused a new payment (503
// not_ready) while API keys are not; a wallet set in the back office clears its problem; an rpc
// store whose node is down says so; the devnet demo configuration is ready and charges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testXpub, DGUB } from '../helpers/keys';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';
import { until } from '../helpers/wait';
import { signIn } from '../helpers/sessions';

const KEY = 'ready-test-key-' + randomBytes(12).toString('hex');
const OWNER = { email: 'owner@ready.test', password: 'readiness test password' };
const TPUB = testXpub(7);
const SALE = { items: [{ type: 'item', id: 'tea', name: 'Tea', count: 1, unit: '1' }] };

interface Session {
  cookie: string;
  csrf: string;
}

const login = (app: AppServer): Promise<Session> => signIn(app.url, OWNER.email, OWNER.password);

async function health(app: AppServer) {
  const r = await fetch(`${app.url}/api/health`);
  const body = await r.json();
  return { status: r.status, body, codes: (body.problems as { code: string }[]).map((p) => p.code).sort() };
}

/** The till's Charge: POST /api/v1/payments with the session cookie and CSRF token. */
async function tillCharge(app: AppServer, s: Session, idem = 'pos-' + randomBytes(8).toString('hex')) {
  const r = await fetch(`${app.url}/api/v1/payments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: s.cookie, 'X-CSRF-Token': s.csrf, Origin: app.url, 'Idempotency-Key': idem },
    body: JSON.stringify(SALE),
  });
  return { status: r.status, body: await r.json(), retryAfter: r.headers.get('retry-after') };
}

async function apiCharge(app: AppServer) {
  const r = await fetch(`${app.url}/api/v1/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(SALE),
  });
  return { status: r.status, body: await r.json() };
}

/** The page as rendered, without its scripts (they carry the whole message catalog, every
 * language string the page might need later, so a string there says nothing about the page). */
async function page(app: AppServer, s: Session, path: string): Promise<string> {
  const r = await fetch(app.url + path, { headers: { Cookie: s.cookie }, redirect: 'manual' });
  expect(r.status).toBe(200);
  return (await r.text()).replace(/<script\b[\s\S]*?<\/script>/g, '');
}

describe('a mainnet store that is not ready', () => {
  let app: AppServer;
  let owner: Session;
  beforeAll(async () => {
    // spv with the one peer at a closed loopback port (startApp's default DOGE_PEERS), no wallet.
    app = await startApp({
      DOGE_NETWORK: 'mainnet',
      CHAIN_BACKEND: 'spv',
      PUBLIC_URL: 'http://localhost:3999',
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
      BOOTSTRAP_API_KEY: KEY,
    });
    owner = await login(app);
  });
  afterAll(async () => app?.stop());

  it('reports ready:false with every problem in words, and stays ok (200) with its old fields', async () => {
    const h = await health(app);
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({
      ok: true,
      network: 'mainnet',
      backend: 'spv',
      db: 'pglite',
      chain: { tip: expect.any(Number), synced: false, peers: 0 },
      ready: false,
    });
    expect(h.codes).toEqual(['no_peers', 'no_wallet', 'not_synced', 'public_url_localhost', 'public_url_not_https']);
    for (const p of h.body.problems) expect(p).toEqual({ code: expect.any(String), message: expect.stringMatching(/\w+ \w+ \w+/) });
  });

  it('opens the back office on the checklist and shows the till locked with the reason', async () => {
    const admin = await page(app, owner, '/admin');
    expect(admin).toContain('Get your store ready');
    expect(admin).toContain('Before the first sale');
    expect(admin).not.toContain('Recent invoices');
    expect(admin).toMatch(/href="\/admin\/settings"/);
    expect(admin).toMatch(/href="\/admin\/node"/);
    const pos = await page(app, owner, '/pos');
    expect(pos).toMatch(/Counter can(&#x27;|')t take payments yet: no receiving wallet is set up/);
  });

  it('refuses the till (session) a new payment with 503 not_ready; an API key is not refused for readiness', async () => {
    const till = await tillCharge(app, owner);
    expect(till.status).toBe(503);
    expect(till.body).toMatchObject({ error: 'not_ready', message: expect.stringContaining("can't take payments yet") });
    expect(till.body.problems.map((p: { code: string }) => p.code)).toContain('no_wallet');
    expect(till.retryAfter).toBe('10');
    // The API key gets past readiness to the wallet check itself (409: no wallet to pay into).
    expect((await apiCharge(app)).status).toBe(409);
  });

  it('a wallet set in the back office clears no_wallet; the till is still refused, API keys now charge', async () => {
    const r = await fetch(`${app.url}/api/admin/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf, Origin: app.url },
      body: JSON.stringify({ store_xpub: DGUB }),
    });
    expect(r.status).toBe(200);
    const h = await health(app);
    expect(h.body.ready).toBe(false);
    expect(h.codes).toEqual(['no_peers', 'not_synced', 'public_url_localhost', 'public_url_not_https']);
    const till = await tillCharge(app, owner);
    expect(till.status).toBe(503);
    expect(till.body.problems.map((p: { code: string }) => p.code)).not.toContain('no_wallet');
    const api = await apiCharge(app);
    expect(api.status).toBe(201);
    expect(api.body.payment.outputs[0].address).toMatch(/^D/);
  });
});

describe('an rpc store whose node is down', () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startApp({ DOGE_NETWORK: 'testnet', CHAIN_BACKEND: 'rpc', DOGE_RPC_URL: 'http://u:p@127.0.0.1:9', STORE_XPUB: TPUB });
  });
  afterAll(async () => app?.stop());

  it('says the node cannot be reached (not "no peers"), and nothing about PUBLIC_URL off mainnet', async () => {
    const h = await health(app);
    expect(h.body).toMatchObject({ ok: true, ready: false, backend: 'rpc' });
    expect(h.codes).toEqual(['not_synced', 'rpc_unreachable']);
  });
});

describe('the devnet demo configuration', () => {
  let app: AppServer;
  let owner: Session;
  beforeAll(async () => {
    app = await startApp(
      devnetAppEnv({
        STORE_XPUB: TPUB,
        ADMIN_EMAIL: OWNER.email,
        ADMIN_PASSWORD: OWNER.password,
      }),
    );
    owner = await login(app);
  });
  afterAll(async () => app?.stop());

  it('is ready once the worker has reported, opens on the overview, and the till charges', async () => {
    const h = await until(
      () => health(app),
      (x) => x.body.ready === true,
    );
    expect(h.body).toMatchObject({ ok: true, ready: true, problems: [], chain: { synced: true, peers: 1 } });
    const admin = await page(app, owner, '/admin');
    expect(admin).toContain('Recent invoices');
    expect(admin).not.toContain('Before the first sale');
    const pos = await page(app, owner, '/pos');
    expect(pos).not.toContain('take payments yet');
    const till = await tillCharge(app, owner);
    expect(till.status).toBe(201);
    expect(till.body.status).toBe('unpaid');
  });
});
