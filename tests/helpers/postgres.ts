// Starts a throwaway PostgreSQL server on a loopback port for integration tests, and stops it
// by pid afterwards. initdb refuses to run as root, so as root the server runs as `postgres`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, chmodSync, chownSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { freePort } from './ports';

export interface PgServer {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
  /** Stop the server but keep its data (for outage tests); start() brings it back. */
  pause(): void;
  start(): void;
}

function pgBinDir(): string {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) throw new Error('PostgreSQL server not installed: apt-get install -y postgresql');
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  return join(root, versions[0], 'bin');
}

/** Runs a PostgreSQL tool, as `postgres` when we are root (initdb and the server refuse root). */
function runAsPostgres(cmd: string, args: string[]): void {
  if (process.getuid?.() === 0) {
    const line = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', line], { stdio: 'pipe' });
  } else {
    execFileSync(cmd, args, { stdio: 'pipe' });
  }
}

/** A directory `postgres` may write in when we are root. */
function tempDirFor(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) {
    chmodSync(dir, 0o755);
    chownSync(dir, postgresIds().uid, postgresIds().gid);
  }
  return dir;
}

let ids: { uid: number; gid: number } | undefined;
function postgresIds(): { uid: number; gid: number } {
  ids ??= {
    uid: Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()),
    gid: Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()),
  };
  return ids;
}

/**
 * One initdb per run and PostgreSQL version, in the run's temporary directory: every server
 * after the first starts from a copy of this empty cluster (`cp -a` keeps its owner and its
 * 0700 mode), which spares each test file initdb's second of CPU. Built aside and renamed into
 * place, so two test files starting at once never see half a cluster.
 */
function clusterTemplate(bin: string): string {
  const dir = join(tmpdir(), `counter-pg-template-${basename(dirname(bin))}`);
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  const build = tempDirFor('counter-pg-template-build-');
  try {
    runAsPostgres(join(bin, 'initdb'), ['-D', join(build, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '-N']);
    try {
      renameSync(join(build, 'data'), dir);
    } catch (e) {
      // Another test file built it first: theirs serves.
      if (!existsSync(join(dir, 'PG_VERSION'))) throw e;
    }
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
  return dir;
}

export async function startPostgres(): Promise<PgServer> {
  const bin = pgBinDir();
  const base = tempDirFor('counter-pg-');
  const dataDir = join(base, 'data');
  const sockDir = join(base, 'sock');
  const port = await freePort();
  const run = runAsPostgres;
  run('cp', ['-a', clusterTemplate(bin), dataDir]);
  run('mkdir', ['-p', sockDir]);
  const start = () =>
    run(join(bin, 'pg_ctl'), [
      '-D',
      dataDir,
      '-w',
      '-t',
      '30',
      '-l',
      join(base, 'server.log'),
      '-o',
      `-p ${port} -k ${sockDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
  start();
  const pidOf = () => Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const stopFast = () => {
    try {
      process.kill(pidOf(), 'SIGINT'); // "fast" shutdown
    } catch {
      return;
    }
    for (let i = 0; i < 300 && existsSync(join(dataDir, 'postmaster.pid')); i++) spawnSync('sleep', ['0.1']);
  };
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    pause: stopFast,
    start,
    stop: async () => {
      stopFast();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database on the server (so tests do not share schema state). */
export async function createDatabase(server: PgServer, name: string): Promise<string> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  return server.url.replace(/\/postgres$/, `/${name}`);
}
