// Pure logic of the web hardening (docs/security.md): where a sign-in may send the browser, which
// addresses a webhook may reach, who the client is (TRUST_PROXY), sign-in throttling, the
// password rules, the scrypt bound, and the database bounds of query values.
import { describe, expect, it } from 'vitest';
import { safeNextPath } from '@/lib/auth/safe-next';
import { isPrivateAddress, webhookUrlProblem } from '@/lib/webhooks/address';
import { clientInfo, installPeerStamp, PEER_HEADER, trustProxyHops } from '@/lib/api/client-address';
import { lockMs, FREE_FAILURES } from '@/lib/auth/sign-in-throttle';
import { passwordProblem, verifyPassword, hashPassword, scryptSlots, Semaphore, cookieValue } from '@/lib/auth';
import { parseInt64, storableDate, isDataException } from '@/lib/db/bounds';

describe('safeNextPath: redirects after sign-in stay on this origin', () => {
  it.each([
    '/\t/evil.example/phish',
    '/\n/evil.example/phish',
    '/\r/evil.example/phish', // browsers strip these
    '//evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    'https://evil.example/',
    'http:evil.example',
    'javascript:alert(1)',
    'evil.example',
    '',
    ' /admin',
    '/admin ',
    '/ad min',
    '/\u0000x',
    '/\u00a0/evil.example',
    '/\u2028/evil.example',
    '/a\\..\\..\\evil',
    'x'.repeat(10),
  ])('refuses %j', (next) => {
    expect(safeNextPath(next, '/fallback')).toBe('/fallback');
  });
  it.each(['/', '/admin', '/admin/settings?tab=webhooks', '/pos#cart', '/admin/invoices?q=a%20b'])('follows %j', (next) => {
    expect(safeNextPath(next, '/fallback')).toBe(next);
  });
  it('percent-encodes every character outside ASCII, so the path is always a valid Location header', () => {
    // /login?next=/%E3%80%82evil reaches the page decoded: "/。evil" made the redirect a 500
    expect(safeNextPath('/\u3002evil', '/f')).toBe('/%E3%80%82evil');
    expect(safeNextPath('/\u{1F600}?q=\u00e9#\u00fc', '/f')).toBe('/%F0%9F%98%80?q=%C3%A9#%C3%BC');
    expect(safeNextPath('/caf\u00e9', '/f')).toBe('/caf%C3%A9'); // U+0080..U+00FF too: latin-1 in a header is mojibake
    for (const n of ['/\u3002evil', '/\u{1F600}', '/x?\u4e2d=\u6587', '/#\u0100'])
      expect(safeNextPath(n, '/f')).toMatch(/^\/[\x21-\x7e]*$/);
    // dot segments normalised into "//" would be protocol-relative: refused
    expect(safeNextPath('/.//evil.example', '/f')).toBe('/f');
    expect(safeNextPath('/a/..//evil.example', '/f')).toBe('/f');
  });
  it('takes only strings (a repeated ?next= is an array)', () => {
    expect(safeNextPath(['/admin', '//evil'], '/f')).toBe('/f');
    expect(safeNextPath(undefined, '/f')).toBe('/f');
  });
});

describe('webhook addresses (SSRF)', () => {
  const refused = [
    'http://127.0.0.1/x',
    'http://[::1]/x',
    'http://0x7f000001/x',
    'http://2130706433/x',
    'http://0177.0.0.1/x',
    'http://127.1/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:127.0.0.1]/x',
    'http://[::ffff:a9fe:a9fe]/x',
    'http://10.1.2.3/x',
    'http://172.16.0.1/x',
    'http://192.168.1.1/x',
    'http://100.64.0.1/x',
    'http://0.0.0.0/x',
    'http://[::]/x',
    'http://[fd00:ec2::254]/x',
    'http://[fe80::1]/x',
    'http://[64:ff9b::7f00:1]/x',
    'http://[2002:7f00:1::]/x',
    'http://localhost:3000/x',
    'http://LOCALHOST./x',
    'http://a.localhost/x',
    'https://169.254.169.254./x',
  ];
  it.each(refused)('refuses %s when saved', async (url) => {
    expect(await webhookUrlProblem(url, { allowPrivate: false })).toMatch(/loopback, private, link-local or metadata/);
    expect(await webhookUrlProblem(url, { allowPrivate: true })).toBeNull();
  });
  it('refuses a name that resolves to loopback', async () => {
    const { hostname } = await import('node:os');
    const { lookup } = await import('node:dns/promises');
    const addr = await lookup(hostname()).catch(() => null);
    if (!addr || !isPrivateAddress(addr.address)) return; // this machine's name is public: nothing to show
    expect(await webhookUrlProblem(`http://${hostname()}:8080/hook`, { allowPrivate: false })).toMatch(/resolves to/);
  });
  it('accepts public addresses', async () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '100.128.0.1', '172.32.0.1'])
      expect(isPrivateAddress(ip)).toBe(false);
    expect(await webhookUrlProblem('https://93.184.216.34/hook', { allowPrivate: false })).toBeNull();
    expect(await webhookUrlProblem('https://[2606:4700:4700::1111]/hook', { allowPrivate: false })).toBeNull();
  });
});

describe('client address (TRUST_PROXY)', () => {
  installPeerStamp();
  // What the diagnostics-channel stamp writes: this process's token, the scheme, the socket peer.
  const stamped = (peer: string, extra: Record<string, string> = {}, scheme = 'http') => {
    const token = (globalThis as { __counterPeerToken?: string }).__counterPeerToken!;
    return new Request('http://x/', { headers: { [PEER_HEADER]: `${token} ${scheme} ${peer}`, ...extra } });
  };
  it('is the socket peer by default: X-Forwarded-For and -Proto are not believed', () => {
    const r = stamped('::ffff:203.0.113.9', { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https' });
    expect(clientInfo(r, {})).toEqual({ address: '203.0.113.9', secure: false });
  });
  it('ignores a stamp without this process token (a client cannot forge it)', () => {
    const r = new Request('http://x/', { headers: { [PEER_HEADER]: 'guess http 9.9.9.9' } });
    expect(clientInfo(r, {}).address).toBe('unknown');
    // A client copy that survives next to the real stamp changes nothing.
    const token = (globalThis as { __counterPeerToken?: string }).__counterPeerToken!;
    const both = new Request('http://x/', {
      headers: [
        [PEER_HEADER, 'guess http 9.9.9.9'],
        [PEER_HEADER, `${token} http 127.0.0.1`],
      ],
    });
    expect(clientInfo(both, {}).address).toBe('127.0.0.1');
  });
  it('with TRUST_PROXY takes the right-most hop no trusted proxy added', () => {
    const r = stamped('10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7', 'x-forwarded-proto': 'http, https' });
    expect(clientInfo(r, { TRUST_PROXY: '1' })).toEqual({ address: '198.51.100.7', secure: true });
    expect(clientInfo(r, { TRUST_PROXY: '2' }).address).toBe('6.6.6.6');
    expect(clientInfo(stamped('10.0.0.2'), { TRUST_PROXY: 'on' }).address).toBe('10.0.0.2');
    expect(clientInfo(stamped('10.0.0.2', { 'x-forwarded-for': 'not-an-ip' }), { TRUST_PROXY: '1' }).address).toBe('10.0.0.2');
  });
  it('reads TRUST_PROXY', () => {
    expect([undefined, '', '0', 'off', 'false', 'junk'].map((v) => trustProxyHops({ TRUST_PROXY: v }))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(['1', 'on', 'true', '3', '99'].map((v) => trustProxyHops({ TRUST_PROXY: v }))).toEqual([1, 1, 1, 3, 10]);
  });
});

describe('sign-in throttling', () => {
  // The counting itself is in the database: tests/integration/sign-in-throttle.test.ts.
  it('5 free failures, then a lock that doubles from 1 s to at most 15 min', () => {
    expect([1, 4].map(lockMs)).toEqual([0, 0]);
    expect([FREE_FAILURES, FREE_FAILURES + 1, FREE_FAILURES + 2].map(lockMs)).toEqual([1000, 2000, 4000]);
    expect(lockMs(FREE_FAILURES + 10)).toBe(15 * 60 * 1000);
    expect(lockMs(10_000)).toBe(15 * 60 * 1000);
  });
});

describe('passwords', () => {
  it('need 12 characters and must not be one of the 10,000 most common', () => {
    expect(passwordProblem('eleven char')).toMatch(/at least 12/);
    for (const p of ['qwerty123456', '1q2w3e4r5t6y', 'LeaveMeAlone', '123qweasdzxc']) expect(passwordProblem(p)).toMatch(/most common/);
    expect(passwordProblem('long enough password')).toBeNull();
  });
  it('run scrypt at most SCRYPT_CONCURRENCY (2) at a time, however many verify at once', async () => {
    const h = await hashPassword('correct horse battery');
    const slots = scryptSlots();
    expect(slots.limit).toBe(2);
    let seen = 0;
    const sample = setInterval(() => (seen = Math.max(seen, slots.stats().active)), 1);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => verifyPassword(i % 2 ? 'correct horse battery' : 'wrong horse battery', h)),
    );
    clearInterval(sample);
    expect(results).toEqual([false, true, false, true, false, true, false, true]);
    expect(slots.stats().peak).toBeLessThanOrEqual(2);
    expect(seen).toBeLessThanOrEqual(2);
    expect(slots.stats()).toMatchObject({ active: 0, waiting: 0 });
  });
  it('the semaphore hands slots over in order and never exceeds its limit', async () => {
    const s = new Semaphore(3);
    let active = 0;
    let max = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        s.run(async () => {
          max = Math.max(max, ++active);
          await new Promise((r) => setTimeout(r, 2));
          active--;
        }),
      ),
    );
    expect(max).toBe(3);
  });
});

describe('values the database cannot store', () => {
  it('int64 bounds', () => {
    expect(parseInt64('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseInt64('9223372036854775808')).toBeNull();
    expect(parseInt64('9999999999999999999')).toBeNull();
    expect(parseInt64('-1')).toBeNull();
  });
  it('dates', () => {
    expect(storableDate(new Date('0000-01-01T00:00:00Z'))).toBeNull();
    expect(storableDate(new Date('-001000-01-01T00:00:00Z'))).toBeNull();
    expect(storableDate(new Date('2020-12-31T23:59:60Z'))).toBeNull();
    expect(storableDate(new Date('2026-11-24T00:00:00Z'))).not.toBeNull();
  });
  it('recognises a database data exception wrapped by Prisma', () => {
    expect(isDataException({ code: 'P2039', meta: { driverAdapterError: { cause: { originalCode: '22021' } } } })).toBe(true);
    expect(isDataException({ code: 'P2002' })).toBe(false);
  });
  it('a malformed session cookie is no session', () => {
    expect(cookieValue('counter_session=%E0%A4%A', 'counter_session')).toBeNull();
    expect(cookieValue('counter_session=%', 'counter_session')).toBeNull();
    expect(cookieValue('a=1; counter_session=abc', 'counter_session')).toBe('abc');
  });
});
