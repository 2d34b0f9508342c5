// loadConfig (docs/configuration.md): the defaults of an empty environment, one clear error per
// bad variable naming it, and which variable is named first when several are bad (the readers run
// in a fixed order: PORT before PUBLIC_URL before DATABASE_URL, and so on).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@/lib/config';

const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv;
const XPUB_HASH = 'ab'.repeat(32);

/** The variable named by the error loadConfig throws for `e`. */
function refused(e: Record<string, string>): string {
  try {
    loadConfig(env(e));
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).variable;
  }
  throw new Error('loadConfig accepted ' + JSON.stringify(e));
}

describe('loadConfig', () => {
  it('an empty environment gives the documented defaults', () => {
    expect(loadConfig(env({}))).toEqual({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      dataDir: './data',
      databaseUrl: null,
      dbKind: 'pglite',
      network: 'mainnet',
      chainBackend: 'spv',
      peers: [],
      rpcUrl: null,
      rpcMempoolPollMs: 250,
      genesisHash: null,
      checkpoint: null,
      storeXpub: null,
      storeAddress: null,
      bootstrapApiKey: null,
      adminEmail: null,
      adminPassword: null,
      devnetBlockSeconds: 10,
      maxOpenPayments: 5000,
      walletBirthday: null,
      walletCheck: null,
      signup: 'off',
      worker: 'embedded',
      workerLeaseMs: 8000,
      logLevel: 'info',
    });
  });

  it('reads and normalises every variable', () => {
    const c = loadConfig(
      env({
        PORT: '8080',
        PUBLIC_URL: 'https://shop.example/pay//',
        DATABASE_URL: 'postgres://db/x',
        DOGE_NETWORK: 'regtest',
        CHAIN_BACKEND: 'rpc',
        DOGE_PEERS: ' a.b:1, [::1]:2 ,',
        DOGE_RPC_URL: 'http://u:p@h:1',
        CHAIN_GENESIS_HASH: XPUB_HASH.toUpperCase(),
        CHAIN_CHECKPOINT: `5:${XPUB_HASH.toUpperCase()}`,
        DEVNET_BLOCK_SECONDS: '0',
        MAX_OPEN_PAYMENTS: '7',
        WALLET_BIRTHDAY: '100',
        WORKER: 'off',
        WORKER_LEASE_MS: '2000',
        LOG_LEVEL: 'debug',
        ADMIN_PASSWORD: ' spaced ',
        DOGE_RPC_MEMPOOL_POLL_MS: '0',
      }),
    );
    expect(c).toMatchObject({
      port: 8080,
      publicUrl: 'https://shop.example/pay',
      dbKind: 'postgresql',
      network: 'regtest',
      chainBackend: 'rpc',
      peers: ['a.b:1', '[::1]:2'],
      rpcMempoolPollMs: 0,
      genesisHash: XPUB_HASH,
      checkpoint: { height: 5, hash: XPUB_HASH },
      devnetBlockSeconds: 0,
      maxOpenPayments: 7,
      walletBirthday: { kind: 'height', height: 100 },
      worker: 'off',
      workerLeaseMs: 2000,
      logLevel: 'debug',
      adminPassword: ' spaced ', // a password is taken as typed
    });
  });

  it.each([
    [{ PORT: '0' }, 'PORT'],
    [{ PORT: '1e3' }, 'PORT'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DOGE_NETWORK: 'main' }, 'DOGE_NETWORK'],
    [{ CHAIN_BACKEND: 'devnet' }, 'CHAIN_BACKEND'],
    [{ DOGE_PEERS: 'nohost' }, 'DOGE_PEERS'],
    [{ DOGE_RPC_URL: 'h:1' }, 'DOGE_RPC_URL'],
    [{ CHAIN_BACKEND: 'rpc', DOGE_NETWORK: 'regtest' }, 'DOGE_RPC_URL'],
    [{ DOGE_RPC_MEMPOOL_POLL_MS: '20' }, 'DOGE_RPC_MEMPOOL_POLL_MS'],
    [{ DOGE_RPC_MEMPOOL_POLL_MS: '0.5' }, 'DOGE_RPC_MEMPOOL_POLL_MS'],
    [{ CHAIN_GENESIS_HASH: 'zz' }, 'CHAIN_GENESIS_HASH'],
    [{ CHAIN_CHECKPOINT: '5' }, 'CHAIN_CHECKPOINT'],
    [{ DEVNET_BLOCK_SECONDS: '-1' }, 'DEVNET_BLOCK_SECONDS'],
    [{ MAX_OPEN_PAYMENTS: '0' }, 'MAX_OPEN_PAYMENTS'],
    [{ WALLET_BIRTHDAY: 'soon' }, 'WALLET_BIRTHDAY'],
    [{ WALLET_CHECK: 'yes' }, 'WALLET_CHECK'],
    [{ WORKER: 'on' }, 'WORKER'],
    [{ WORKER_LEASE_MS: '1999' }, 'WORKER_LEASE_MS'],
    [{ WORKER_LEASE_MS: '300001' }, 'WORKER_LEASE_MS'],
    [{ WORKER_LEASE_MS: '2e3' }, 'WORKER_LEASE_MS'],
    [{ WORKER_LEASE_MS: '2000.5' }, 'WORKER_LEASE_MS'],
    [{ LOG_LEVEL: 'trace' }, 'LOG_LEVEL'],
  ])('refuses %j naming %s', (e, variable) => {
    expect(refused(e)).toBe(variable);
  });

  it('of several bad variables, names the first in a fixed order', () => {
    const bad: [string, string][] = [
      ['PORT', 'x'],
      ['PUBLIC_URL', 'x'],
      ['DATABASE_URL', 'x'],
      ['DOGE_NETWORK', 'x'],
      ['DOGE_PEERS', 'x'],
      ['DOGE_RPC_URL', 'x'],
      ['DOGE_RPC_MEMPOOL_POLL_MS', 'x'],
      ['CHAIN_GENESIS_HASH', 'x'],
      ['CHAIN_CHECKPOINT', 'x'],
      ['DEVNET_BLOCK_SECONDS', 'x'],
      ['MAX_OPEN_PAYMENTS', 'x'],
      ['WALLET_BIRTHDAY', 'x'],
      ['WALLET_CHECK', 'x'],
      ['WORKER', 'x'],
      ['WORKER_LEASE_MS', 'x'],
      ['LOG_LEVEL', 'x'],
    ];
    for (let i = 0; i < bad.length; i++) expect(refused(Object.fromEntries(bad.slice(i)))).toBe(bad[i][0]);
  });
});
