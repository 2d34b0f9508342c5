// `pretest`: the suite needs real Chromium, litecoind and PostgreSQL from Debian, nginx and Caddy
// (the reverse-proxy examples in docs/operations.md are run), zbar-tools (zbarimg decodes the till's
// QR code from screenshots, docs/relay.md), and the Debian runtime libraries
// that the Dogecoin Core 1.14.9 build links against (DOGECOIND, default
// ../shared/dogecoin/bin/dogecoind), installed like the others. As root we install whatever is
// missing; otherwise we stop with the exact command to run.
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const hasPostgres = () => {
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((v) => existsSync(`${root}/${v}/bin/initdb`));
};
const checks = [
  { pkg: 'chromium', ok: () => existsSync('/usr/bin/chromium') },
  { pkg: 'litecoind', ok: () => existsSync('/usr/bin/litecoind') },
  { pkg: 'postgresql', ok: hasPostgres },
  { pkg: 'nginx-light', ok: () => existsSync('/usr/sbin/nginx') },
  { pkg: 'caddy', ok: () => existsSync('/usr/bin/caddy') },
  { pkg: 'zbar-tools', ok: () => existsSync('/usr/bin/zbarimg') },
];
// dogecoind's runtime packages (its README, Debian 12), whether or not the binary is here: a
// DOGECOIND set later finds them in place.
const DOGECOIND_LIBS = [
  'libboost-filesystem1.74.0',
  'libboost-program-options1.74.0',
  'libboost-thread1.74.0',
  'libboost-chrono1.74.0',
  'libdb5.3++',
  'libevent-2.1-7',
  'libevent-pthreads-2.1-7',
  'libssl3',
];
const debInstalled = (pkg) =>
  /install ok installed/.test(spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout ?? '');
for (const pkg of DOGECOIND_LIBS) checks.push({ pkg, ok: () => debInstalled(pkg) });
const missing = checks.filter((c) => !c.ok()).map((c) => c.pkg);
if (missing.length === 0) process.exit(0);

const line = `apt-get update && apt-get install -y ${missing.join(' ')}`;
if (process.getuid?.() !== 0) {
  console.error(`Missing system packages for the test suite: ${missing.join(', ')}.\nRun as root:\n  ${line}`);
  process.exit(1);
}
console.log(`Installing missing system packages: ${missing.join(', ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', ...missing],
]) {
  const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`apt-get ${args.join(' ')} failed. Run by hand:\n  ${line}`);
    process.exit(1);
  }
}
const still = checks.filter((c) => !c.ok()).map((c) => c.pkg);
if (still.length) {
  console.error(`Still missing after install: ${still.join(', ')}`);
  process.exit(1);
}
