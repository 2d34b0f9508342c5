// The wallet SDK as an npm package: `npm pack` lib/wallet (its prepack builds dist/ with
// tsconfig.build.json), install the tarball into a fresh project outside the repository with
// `npm install --offline` (its npm dependencies are packed from the repository's node_modules:
// no registry), type-check a consumer against the shipped .d.ts, then pay a devnet payment on a
// real Counter app from a plain Node script that imports only the installed package.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testXpub } from '../helpers/keys';
import { devnetAppEnv, startApp, type AppServer } from '../helpers/app-server';

const ROOT = resolve(__dirname, '../..');
const WALLET_DIR = join(ROOT, 'lib/wallet');
const API_KEY = 'test-bootstrap-key-' + randomBytes(12).toString('hex');
const xpub = testXpub(12);
const ENV = devnetAppEnv({ STORE_XPUB: xpub, BOOTSTRAP_API_KEY: API_KEY });
const work = mkdtempSync(join(tmpdir(), 'counter-sdk-package-'));
let app: AppServer;

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: join(work, 'npm-cache'), npm_config_update_notifier: 'false', ...env },
    timeout: 240_000,
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The package's npm dependencies and theirs, as installed in the repository's node_modules. */
function dependencyDirs(): string[] {
  const seen = new Set<string>();
  const visit = (deps: Record<string, string> | undefined) => {
    for (const name of Object.keys(deps ?? {})) {
      if (seen.has(name)) continue;
      seen.add(name);
      visit(JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).dependencies);
    }
  };
  visit(JSON.parse(readFileSync(join(WALLET_DIR, 'package.json'), 'utf8')).dependencies);
  return [...seen].map((n) => join(ROOT, 'node_modules', n));
}

async function api(path: string, init: RequestInit = {}) {
  const r = await fetch(app.url + path, {
    ...init,
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });
  return { status: r.status, body: await r.json().catch(() => null) };
}

const CONSUMER_TS = `import { payUri, statusView, parseKoinu, isWalletError, type WalletPaymentStatus, type PaymentDisplay } from '@counter/dogeconnect-wallet';
export async function pay(uri: string, wif: string): Promise<WalletPaymentStatus> {
  const r = await payUri(uri, { network: 'regtest', keys: [wif], utxos: [{ txid: '00'.repeat(32), vout: 0, amount: parseKoinu('1.5') }], confirm: (v: PaymentDisplay) => v.total !== '0' });
  const due: number | null = statusView(r.submitted).dueSec;
  return due === null ? r.submitted : r.submitted;
}
export const refusedTx = (e: unknown): boolean => isWalletError(e, 'tx_rejected');
`;

// A plain Node script, as a wallet developer would write it: only the installed package.
const PAY_MJS = `import { payUri, parseKoinu, statusView } from '@counter/dogeconnect-wallet';
const w = JSON.parse(process.env.DEMO_WALLET);
const r = await payUri(process.env.PAY_URI, {
  allowHttp: true, network: w.network, keys: [w.wif], refund: w.address,
  utxos: w.utxos.map((u) => ({ txid: u.txid, vout: u.vout, amount: parseKoinu(u.amount), script: u.script })),
  confirm: (view) => view.total === process.env.EXPECT_TOTAL,
});
console.log(JSON.stringify({ view: statusView(r.submitted), txid: r.tx.txid, lines: r.view.lines.map((l) => l.name) }));
`;

beforeAll(async () => {
  app = await startApp(ENV);
}, 180_000);
afterAll(async () => {
  await app?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the wallet SDK as an npm package', () => {
  it('packs, installs offline into a fresh project, type-checks, and pays a devnet payment to accepted', async () => {
    const packDir = join(work, 'pack');
    const depsDir = join(work, 'deps');
    const proj = join(work, 'consumer');
    for (const d of [packDir, depsDir, proj]) mkdirSync(d, { recursive: true });

    run('npm', ['pack', '--pack-destination', packDir], WALLET_DIR); // prepack: node build.mjs
    const [tarball] = readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
    expect(tarball).toBe('counter-dogeconnect-wallet-0.1.0.tgz');
    const listing = run('tar', ['tzf', join(packDir, tarball)], work).split('\n');
    expect(listing).toContain('package/dist/wallet/index.js');
    expect(listing).toContain('package/dist/wallet/index.d.ts');
    expect(listing).toContain('package/dist/connect/envelope.js'); // the lib/connect it needs travels with it
    expect(listing).toContain('package/README.md');
    expect(listing.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]); // no sources

    run('npm', ['pack', '--pack-destination', depsDir, ...dependencyDirs()], work);
    writeFileSync(join(proj, 'package.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module' }));
    const deps = readdirSync(depsDir).map((f) => join(depsDir, f));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(packDir, tarball), ...deps], proj);
    const installed = JSON.parse(readFileSync(join(proj, 'node_modules/@counter/dogeconnect-wallet/package.json'), 'utf8'));
    expect(installed).toMatchObject({ name: '@counter/dogeconnect-wallet', type: 'module' });

    // the shipped types work for a consumer on Node's own module resolution
    writeFileSync(join(proj, 'check.ts'), CONSUMER_TS);
    writeFileSync(
      join(proj, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
        },
        files: ['check.ts'],
      }),
    );
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], proj);

    // a payment on the real app, paid by the installed package from a plain Node script
    const created = await api('/api/v1/payments', {
      method: 'POST',
      body: JSON.stringify({
        items: [
          { type: 'item', id: 'SKU-9', name: 'Bagel', count: 3, unit: '2.5' },
          { type: 'signing', id: 'stamp', name: 'Receipt stamp' },
        ],
        outputs: [{ type: 'data', data: '636f756e746572' }],
      }),
    });
    expect(created.status).toBe(201);
    const p = created.body;
    const wallet = await (await fetch(app.url + '/demo/api/wallet')).json();
    writeFileSync(join(proj, 'pay.mjs'), PAY_MJS);
    const out = JSON.parse(
      run(process.execPath, ['pay.mjs'], proj, { PAY_URI: p.uri, DEMO_WALLET: JSON.stringify(wallet), EXPECT_TOTAL: '7.5', NODE_PATH: '' })
        .trim()
        .split('\n')
        .at(-1)!,
    );
    expect(out.lines).toEqual(['Bagel', 'Receipt stamp']);
    expect(out.view).toMatchObject({ status: 'accepted', txid: out.txid, paid: true, final: false, required: 1, confirmations: 0 });

    const vendor = await api(`/api/v1/payments/${p.id}`);
    expect(vendor.body).toMatchObject({ status: 'accepted', txid: out.txid, refund_address: wallet.address });
  }, 600_000);
});
