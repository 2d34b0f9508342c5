// Where a webhook may be sent (docs/security.md): never to this machine, the store's private
// network or a cloud metadata service (SSRF), unless WEBHOOK_ALLOW_PRIVATE=1.
//
// Refused: loopback, unspecified, private (RFC 1918, fc00::/7), link-local (169.254/16 with the
// 169.254.169.254 metadata service, fe80::/10), CGNAT (100.64/10), other special-purpose IPv4
// ranges, multicast and reserved space, and IPv6 forms that embed one of those (IPv4-mapped,
// IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16). Odd IPv4 spellings (0x7f000001,
// 2130706433, 0177.0.0.1, 127.1) are normalised by the WHATWG URL parser before the check, as
// fetch would normalise them. Names are checked after DNS resolution, every address of the
// answer, and at delivery the connection is pinned to the addresses checked (the lookup hook
// of node:http), so a second, rebinding answer is never used.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { ipv6Groups } from '../net';
import { processEnv } from '../config';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments (some metadata services live here)
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (IPv4-mapped ones are checked against the IPv4 rules)
  ['64:ff9b::', 96], // NAT64 (embedded IPv4 checked below)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

const v4of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** True when an IP address is one a webhook must not reach. */
export function isPrivateAddress(ip: string): boolean {
  const host = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const kind = isIP(host);
  if (kind === 4) return blocked.check(host, 'ipv4');
  if (kind !== 6) return true; // not an address at all: refuse rather than guess
  if (blocked.check(host.split('%')[0], 'ipv6')) return true;
  const g = ipv6Groups(host);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return blocked.check(v4of(g[6], g[7]), 'ipv4');
  if (g[0] === 0x2002) return blocked.check(v4of(g[1], g[2]), 'ipv4');
  return false;
}

export function webhookAllowPrivate(env: Record<string, string | undefined> = processEnv()): boolean {
  return /^(1|true|yes|on)$/i.test(env.WEBHOOK_ALLOW_PRIVATE?.trim() ?? '');
}

export class WebhookAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAddressError';
  }
}

const refusal = (host: string, ip?: string) =>
  new WebhookAddressError(
    `webhook host ${host}${ip && ip !== host ? ` resolves to ${ip}, which` : ''} is a loopback, private, link-local or metadata address; ` +
      'webhooks are only sent to public addresses (WEBHOOK_ALLOW_PRIVATE=1 allows private ones)',
  );

/** The URL's host without IPv6 brackets or a trailing dot. */
function hostOf(url: URL): string {
  const h = url.hostname.replace(/\.$/, '').toLowerCase();
  return h.startsWith('[') ? h.slice(1, -1) : h;
}

function resolveAll(host: string, family = 0): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, family, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))),
  );
}

/**
 * Why this URL may not receive webhooks (a message naming the address), or null when it may.
 * Names are resolved; a name that does not resolve is not refused here (delivery checks again).
 */
export async function webhookUrlProblem(raw: string, opts: { allowPrivate?: boolean } = {}): Promise<string | null> {
  if (opts.allowPrivate ?? webhookAllowPrivate()) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  const host = hostOf(url);
  if (isIP(host)) return isPrivateAddress(host) ? refusal(host).message : null;
  if (host === 'localhost' || host.endsWith('.localhost')) return refusal(host).message;
  try {
    for (const a of await resolveAll(host)) if (isPrivateAddress(a.address)) return refusal(host, a.address).message;
  } catch {
    // unresolvable now: judged again, after resolution, at each delivery
  }
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for node:http that resolves once and refuses private answers (the pin). */
function checkedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { family?: number | string; all?: boolean }, cb: LookupCallback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
    resolveAll(hostname, family).then(
      (addrs) => {
        const bad = allowPrivate ? undefined : addrs.find((a) => isPrivateAddress(a.address));
        if (bad) return cb(refusal(hostname, bad.address) as NodeJS.ErrnoException, '');
        if (addrs.length === 0) return cb(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        if (options.all) return cb(null, addrs);
        cb(null, addrs[0].address, addrs[0].family);
      },
      (err) => cb(err, ''),
    );
  };
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch for webhook POSTs that connects only to the addresses it checked: IP literals are
 * checked directly, names through checkedLookup (no second resolution can rebind the
 * connection). Redirects are never followed. Supports what lib/webhooks/delivery needs.
 */
export function pinnedFetch(opts: { allowPrivate?: boolean } = {}): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const allowPrivate = opts.allowPrivate ?? webhookAllowPrivate();
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
    const host = hostOf(url);
    if (!allowPrivate && isIP(host) && isPrivateAddress(host)) throw refusal(host);
    if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) throw refusal(host);
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const fail = (err: unknown) => reject(signal?.aborted ? signal.reason : err);
      const req = send(
        url,
        { method: init.method ?? 'GET', headers, lookup: checkedLookup(allowPrivate) as never, signal },
        (res: IncomingMessage) => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 599) {
            res.destroy();
            return reject(new Error(`invalid HTTP status ${status}`));
          }
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === undefined) continue;
            for (const x of Array.isArray(v) ? v : [v]) h.append(k, x);
          }
          const stream = NULL_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          if (!stream) res.resume();
          resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: h }));
        },
      );
      req.on('error', fail);
      req.end(body);
    });
  }) as typeof fetch;
}

/** The fetch to use when a test injects its own: the address is checked first, not pinned. */
export function checkedFetch(inner: typeof fetch, opts: { allowPrivate?: boolean } = {}): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const problem = await webhookUrlProblem(String(input instanceof Request ? input.url : input), opts);
    if (problem) throw new WebhookAddressError(problem);
    return inner(input, init);
  }) as typeof fetch;
}
