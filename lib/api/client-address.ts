// Who is asking, for rate limits, sign-in throttling and secure cookies (docs/security.md).
//
// Route handlers see a web Request, not the socket, and Next.js only fills X-Forwarded-For
// from the socket when the request does not carry one: a client can name any address it likes
// there. So the process stamps every incoming request with its real peer: installPeerStamp()
// (run once at startup, from instrumentation.ts through lib/boot) listens on Node's
// `http.server.request.start` diagnostics channel, which fires before the request reaches
// Next.js, overwrites any header of the same name the client sent, and sets
//   x-counter-peer: <per-process random token> <http|https> <socket remote address>
// A stamp without this process's token is ignored, so the header cannot be forged even if
// the stamp were not installed.
//
// TRUST_PROXY (default off) decides whether X-Forwarded-For / X-Forwarded-Proto are believed:
//   off (0, false, no, empty): the client is the socket's peer; forwarded headers are ignored.
//   on / 1 … 10: that many reverse proxies stand in front of the app, each appending the
//     address it received from to X-Forwarded-For. The client is the right-most address that no
//     trusted proxy added: with N proxies, the N-th entry from the right of
//     "X-Forwarded-For, socket peer" (the left-most entry if the list is shorter). Entries to
//     its left were written by the client and are never believed. The scheme is the right-most
//     X-Forwarded-Proto value.
import { randomBytes } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { isIP } from 'node:net';
import { processEnv } from '../config';

export const PEER_HEADER = 'x-counter-peer';

const g = globalThis as { __counterPeerToken?: string };

interface StartMessage {
  request: { headers: Record<string, string | string[] | undefined>; rawHeaders: string[] };
  socket: { remoteAddress?: string; encrypted?: boolean };
}

/** Stamps every HTTP request this process receives with its socket peer (idempotent). */
export function installPeerStamp(): void {
  if (g.__counterPeerToken) return;
  const token = randomBytes(18).toString('base64url');
  g.__counterPeerToken = token;
  subscribe('http.server.request.start', (message) => {
    const { request, socket } = message as StartMessage;
    const value = `${token} ${socket.encrypted ? 'https' : 'http'} ${socket.remoteAddress ?? 'unknown'}`;
    try {
      // Overwrite (never remove: Node counts the raw headers) any copy the client sent, then set
      // ours on the parsed headers too.
      const raw = request.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i].toLowerCase() === PEER_HEADER) raw[i + 1] = value;
      request.headers[PEER_HEADER] = value;
    } catch {
      // never let a subscriber throw into Node's HTTP parser; without a stamp the client is 'unknown'
    }
  });
}

/** TRUST_PROXY as a number of trusted proxy hops (0 = off). */
export function trustProxyHops(env: Record<string, string | undefined> = processEnv()): number {
  const v = (env.TRUST_PROXY ?? '').trim().toLowerCase();
  if (v === '' || v === '0' || v === 'off' || v === 'false' || v === 'no') return 0;
  if (v === 'on' || v === 'true' || v === 'yes') return 1;
  return /^\d{1,2}$/.test(v) ? Math.min(10, Number(v)) : 0;
}

export interface ClientInfo {
  /** The client's IP address (IPv4-mapped IPv6 written as IPv4), or 'unknown'. */
  address: string;
  /** Whether the client's connection is https (to us, or to the trusted proxy). */
  secure: boolean;
}

function plainIp(s: string): string | null {
  let v = s.trim();
  if (v.startsWith('[') && v.includes(']'))
    v = v.slice(1, v.indexOf(']')); // [v6]:port
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(':')); // v4:port
  if (!isIP(v)) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v);
  return (mapped ? mapped[1] : v).toLowerCase();
}

function peer(req: Request): { secure: boolean; address: string } | null {
  const token = g.__counterPeerToken;
  const stamp = req.headers.get(PEER_HEADER);
  if (!token || !stamp) return null;
  // Only our own stamp counts, wherever it sits: should a client's copy of the header survive
  // next to it (joined with ", "), it lacks the token and is skipped.
  for (const part of stamp.split(',')) {
    const [t, scheme, address] = part.trim().split(' ');
    if (t === token) return { secure: scheme === 'https', address: plainIp(address ?? '') ?? 'unknown' };
  }
  return null;
}

const list = (h: string | null) =>
  (h ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function clientInfo(req: Request, env: Record<string, string | undefined> = processEnv()): ClientInfo {
  const p = peer(req) ?? { secure: false, address: 'unknown' };
  const hops = trustProxyHops(env);
  if (hops === 0) return p;
  const chain = [...list(req.headers.get('x-forwarded-for')), p.address];
  const candidate = chain[Math.max(0, chain.length - 1 - hops)];
  const proto = list(req.headers.get('x-forwarded-proto')).at(-1)?.toLowerCase();
  return { address: plainIp(candidate) ?? p.address, secure: proto ? proto === 'https' : p.secure };
}

export const clientAddress = (req: Request): string => clientInfo(req).address;
