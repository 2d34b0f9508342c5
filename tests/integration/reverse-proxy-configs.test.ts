// The Caddy and nginx examples in docs/operations.md are run, not just printed: each is taken
// from the doc as written, pointed at free loopback ports (and, for nginx, a throw-away
// self-signed certificate), checked by its own tool and then run in front of a small upstream
// that reports what it received and streams Server-Sent Events. The proxy must overwrite a
// client's X-Forwarded-For, say which scheme the client used, and pass events on unbuffered.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports';
import { until } from '../helpers/wait';

const DOC = readFileSync(path.resolve(__dirname, '../../docs/operations.md'), 'utf8');
const block = (lang: string): string => {
  const m = DOC.match(new RegExp('```' + lang + '\\n([\\s\\S]*?)```'));
  if (!m) throw new Error(`docs/operations.md has no ${lang} block`);
  return m[1];
};

const NGINX = '/usr/sbin/nginx';
const CADDY = '/usr/bin/caddy';
for (const [bin, what] of [
  [NGINX, 'nginx'],
  [CADDY, 'caddy'],
] as const) {
  if (!existsSync(bin))
    console.warn(
      `reverse-proxy-configs: ${bin} not found, the ${what} example is skipped (apt-get install ${what === 'nginx' ? 'nginx-light' : 'caddy'})`,
    );
}

interface Seen {
  xff: string | undefined;
  proto: string | undefined;
  host: string | undefined;
}
let upstream: Server;
let upstreamPort = 0;
let seen: Seen | null = null;
let releaseStream: () => void = () => {};

beforeAll(async () => {
  upstreamPort = await freePort();
  upstream = createServer((req, res) => {
    if (req.url === '/events') {
      // First event at once, the second only when the test says so: a buffering proxy would
      // hold the first back.
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
      res.write('event: payment\ndata: {"status":"unpaid"}\n\n');
      releaseStream = () => res.end('event: end\ndata: {}\n\n');
      return;
    }
    seen = {
      xff: req.headers['x-forwarded-for'] as string | undefined,
      proto: req.headers['x-forwarded-proto'] as string | undefined,
      host: req.headers.host,
    };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => upstream.listen(upstreamPort, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

type Get = (url: string, headers: Record<string, string>) => { status: Promise<number>; firstChunk: Promise<string> };
function get(url: string, headers: Record<string, string>, servername?: string): ReturnType<Get> {
  let resolveStatus!: (n: number) => void;
  let resolveChunk!: (s: string) => void;
  const status = new Promise<number>((r) => (resolveStatus = r));
  const firstChunk = new Promise<string>((r) => (resolveChunk = r));
  const u = new URL(url);
  const opts = { host: u.hostname, port: Number(u.port), path: u.pathname, headers, rejectUnauthorized: false, servername };
  const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(opts, (res) => {
    resolveStatus(res.statusCode ?? 0);
    res.once('data', (c: Buffer) => resolveChunk(c.toString('utf8')));
    res.resume();
  });
  req.on('error', (e) => {
    resolveStatus(-1);
    resolveChunk(String(e));
  });
  req.end();
  return { status, firstChunk };
}

async function checkProxy(base: string, expectedProto: string, host: string, servername?: string) {
  seen = null;
  const plain = get(base + '/api/health', { 'X-Forwarded-For': '203.0.113.7', Host: host }, servername);
  expect(await plain.status).toBe(200);
  await until(
    () => seen,
    (s) => s !== null,
    5_000,
    20,
  );
  // The client's own X-Forwarded-For is replaced by the address the proxy saw (loopback).
  expect(seen!.xff).toBe('127.0.0.1');
  expect(seen!.proto).toBe(expectedProto);
  // An SSE event reaches the client while the upstream still holds the stream open.
  const sse = get(base + '/events', { Host: host }, servername);
  expect(await sse.status).toBe(200);
  const first = await Promise.race([sse.firstChunk, new Promise<string>((r) => setTimeout(() => r('timeout'), 5_000))]);
  releaseStream();
  expect(first).toContain('event: payment');
}

function stop(p: ChildProcess | null) {
  if (p && p.exitCode === null) p.kill('SIGTERM');
}

describe.skipIf(!existsSync(NGINX))('the nginx example in docs/operations.md', () => {
  let dir = '';
  let nginx: ChildProcess | null = null;
  afterAll(() => {
    stop(nginx);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes nginx -t and proxies with TLS, an overwritten X-Forwarded-For and unbuffered SSE', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'counter-nginx-'));
    for (const d of ['logs', 'tmp']) mkdirSync(path.join(dir, d));
    const key = path.join(dir, 'privkey.pem');
    const cert = path.join(dir, 'fullchain.pem');
    const ssl = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=pay.example.com'],
      { encoding: 'utf8' },
    );
    expect(ssl.status, ssl.stderr).toBe(0);
    const [tlsPort, httpPort] = [await freePort(), await freePort()];
    const site = block('nginx')
      .replaceAll('/etc/letsencrypt/live/pay.example.com/fullchain.pem', cert)
      .replaceAll('/etc/letsencrypt/live/pay.example.com/privkey.pem', key)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`)
      .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replace('http://127.0.0.1:3000', `http://127.0.0.1:${upstreamPort}`);
    expect(site).not.toContain(':3000');
    const t = (n: string) => path.join(dir, 'tmp', n);
    const conf =
      `worker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents {}\nhttp {\n` +
      `access_log off;\nclient_body_temp_path ${t('body')};\nproxy_temp_path ${t('proxy')};\nfastcgi_temp_path ${t('fcgi')};\n` +
      `uwsgi_temp_path ${t('uwsgi')};\nscgi_temp_path ${t('scgi')};\n${site}\n}\n`;
    const confPath = path.join(dir, 'nginx.conf');
    writeFileSync(confPath, conf);
    const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', confPath], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);

    nginx = spawn(NGINX, ['-p', dir, '-c', confPath, '-g', 'daemon off;'], { stdio: 'ignore' });
    await until(
      () => get(`https://127.0.0.1:${tlsPort}/api/health`, { Host: 'pay.example.com' }, 'pay.example.com').status,
      (s) => s === 200,
      10_000,
      100,
    );
    await checkProxy(`https://127.0.0.1:${tlsPort}`, 'https', 'pay.example.com', 'pay.example.com');
    // Plain http is sent to https.
    const redirect = get(`http://127.0.0.1:${httpPort}/pos`, { Host: 'pay.example.com' });
    expect(await redirect.status).toBe(301);
  });
});

describe.skipIf(!existsSync(CADDY))('the Caddy example in docs/operations.md', () => {
  let dir = '';
  let caddy: ChildProcess | null = null;
  afterAll(() => {
    stop(caddy);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes caddy validate as written, and proxies with unbuffered SSE', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'counter-caddy-'));
    const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
    const asWritten = path.join(dir, 'Caddyfile');
    writeFileSync(asWritten, block('caddyfile').replace('127.0.0.1:3000', `127.0.0.1:${upstreamPort}`));
    const check = spawnSync(CADDY, ['validate', '--config', asWritten, '--adapter', 'caddyfile'], { encoding: 'utf8', env });
    expect(check.status, check.stderr).toBe(0);

    // Run it on a loopback port over plain http (no certificate authority is reachable here):
    // the site block's body is the doc's, only its address changes.
    const port = await freePort();
    const admin = await freePort();
    const local =
      `{\n\tadmin 127.0.0.1:${admin}\n\tauto_https off\n}\n` +
      block('caddyfile').replace('pay.example.com {', `http://127.0.0.1:${port} {`).replace('127.0.0.1:3000', `127.0.0.1:${upstreamPort}`);
    const runFile = path.join(dir, 'Caddyfile.local');
    writeFileSync(runFile, local);
    caddy = spawn(CADDY, ['run', '--config', runFile, '--adapter', 'caddyfile'], { stdio: 'ignore', env });
    await until(
      () => get(`http://127.0.0.1:${port}/api/health`, {}).status,
      (s) => s === 200,
      15_000,
      100,
    );
    await checkProxy(`http://127.0.0.1:${port}`, 'http', `127.0.0.1:${port}`);
  });
});
