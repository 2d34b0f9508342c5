// `npm run demo`: Counter on the in-process devnet chain, ready for a sale in the browser.
// First run creates DATA_DIR (default ./data-demo) with a demo owner account, an API key and a
// store wallet, all kept in DATA_DIR/demo.json so later runs continue the same shop and chain.
// Devnet coins are worthless; nothing here touches a real network.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HDKey } from '@scure/bip32';

const root = process.cwd();
const dataDir = resolve(process.env.DATA_DIR || join(root, 'data-demo'));
const port = process.env.PORT || '3000';
const publicUrl = (process.env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
mkdirSync(dataDir, { recursive: true });

const stateFile = join(dataDir, 'demo.json');
let state;
if (existsSync(stateFile)) state = JSON.parse(readFileSync(stateFile, 'utf8'));
else {
  state = {
    email: 'demo@counter.local',
    password: 'demo-' + randomBytes(6).toString('base64url'),
    apiKey: 'demo_' + randomBytes(24).toString('base64url'),
    storeSeed: randomBytes(32).toString('hex'),
  };
}
// The café's cashier (added on the first run that reaches the server): a name and a PIN for the
// till's lock screen, and a password nobody needs (she signs in with the PIN on a till).
if (!state.cashier) {
  state.cashier = { email: 'ana@counter.local', name: 'Ana', password: 'demo-' + randomBytes(12).toString('base64url'), pin: demoPin() };
  writeFileSync(stateFile, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}

/** Six digits, not one repeated digit nor a straight run (docs/counter.md#staff-pins refuses those). */
function demoPin() {
  for (;;) {
    const pin = Array.from(randomBytes(6), (b) => String(b % 10)).join('');
    const steps = new Set([...pin].slice(1).map((d, i) => (Number(d) - Number(pin[i]) + 10) % 10));
    if (!(steps.size === 1 && (steps.has(0) || steps.has(1) || steps.has(9)))) return pin;
  }
}

// The shop's receiving wallet: a BIP44 account key on regtest (tpub), watch-only in Counter.
const TESTNET_VERSIONS = { private: 0x04358394, public: 0x043587cf };
const storeXpub = HDKey.fromMasterSeed(Buffer.from(state.storeSeed, 'hex'), TESTNET_VERSIONS).derive("m/44'/1'/0'").publicExtendedKey;

const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  DATA_DIR: dataDir,
  PORT: port,
  PUBLIC_URL: publicUrl,
  DOGE_NETWORK: 'regtest',
  CHAIN_BACKEND: 'devnet',
  DEVNET_BLOCK_SECONDS: process.env.DEVNET_BLOCK_SECONDS || '10',
  STORE_XPUB: storeXpub,
  ADMIN_EMAIL: state.email,
  ADMIN_PASSWORD: state.password,
  BOOTSTRAP_API_KEY: state.apiKey,
};
// Blank, not deleted: a .env file never overrides a variable that is set, so a real
// DATABASE_URL or node configuration cannot leak into the demo (always PGlite in DATA_DIR).
for (const k of ['DATABASE_URL', 'DOGE_RPC_URL', 'DOGE_PEERS', 'CHAIN_GENESIS_HASH', 'CHAIN_CHECKPOINT', 'STORE_ADDRESS']) env[k] = '';
env.WORKER = 'embedded';

function banner() {
  const lines = [
    '',
    '  Counter demo (devnet chain: blocks every ' + env.DEVNET_BLOCK_SECONDS + ' s, worthless coins)',
    '',
    `  Cashier screen    ${publicUrl}/pos`,
    `  Back office       ${publicUrl}/admin`,
    `  Customer's phone  ${publicUrl}/demo/wallet   (open it on a second screen or phone)`,
    '',
    `  Sign in as        ${state.email}`,
    `  Password          ${state.password}`,
    `  Till cashier      ${state.cashier.name}`,
    `  Till cashier PIN  ${state.cashier.pin}   (on a till: Menu, Use this device as a till, then Lock)`,
    `  Vendor API key    ${state.apiKey}`,
    '',
    '  Charge on the cashier screen (or with the API below), then scan or paste the QR code',
    '  into the demo wallet and pay. A block is mined every few seconds to confirm it.',
    '',
    `  curl -s ${publicUrl}/api/v1/payments -H 'Authorization: Bearer ${state.apiKey}' \\`,
    `    -H 'Content-Type: application/json' -d '{"items":[{"type":"item","id":"DEMO-COFFEE","name":"Coffee","count":1,"unit":"12.5"}]}'`,
    '',
    `  Data: ${dataDir} (delete it to start over)`,
    '',
  ];
  console.log(lines.join('\n'));
}

const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// Print the credentials once the server answers.
(async () => {
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (r.status === 200 || r.status === 503) {
        await addCashier().catch((e) => console.error(`demo: could not add the cashier: ${e.message}`));
        return banner();
      }
    } catch {
      /* still starting or building */
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
})();

/** Adds the cashier and her PIN through the back office's API, signed in as the owner; once. */
async function addCashier() {
  if (state.cashier.added) return;
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: state.email, password: state.password }),
  });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': (await login.json()).csrf_token };
  const { email, name, password, pin } = state.cashier;
  const made = await fetch(`${base}/api/admin/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, name, password, role: 'cashier' }),
  });
  if (made.status !== 201) throw new Error(`adding the cashier answered ${made.status}`);
  const { id } = await made.json();
  const set = await fetch(`${base}/api/admin/users/${id}/pin`, { method: 'PUT', headers, body: JSON.stringify({ pin }) });
  if (set.status !== 204) throw new Error(`setting the PIN answered ${set.status}`);
  state.cashier.added = true;
  writeFileSync(stateFile, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}
