// The customer's display (docs/counter.md#the-customers-display): the till's side (a pairing
// code, the published cart) and the display's side (pairing, the live stream).
//
// - The till's routes need a session (with the CSRF header) AND this browser's registered
//   terminal cookie; a PIN session counts only on its own terminal. What a till publishes is
//   validated (zod, size-bounded) and rate-limited per terminal.
// - Pairing needs no session: a same-origin POST of the code. Wrong codes are throttled per
//   client as sign-ins are (lib/auth/sign-in-throttle.ts): from the 5th failure, 429 with
//   Retry-After, doubling.
// - The display's cookie opens its own stream and nothing else: no other route reads it.
import type { Db } from '../db';
import { z } from 'zod';
import { createHash } from 'node:crypto';
import { cookieValue, requestTerminal, sessionScopes, TERMINAL_COOKIE, type ActiveTerminal, signInThrottle } from '../auth';
import {
  createPairingCode,
  displayCookie,
  displayForToken,
  formatPairingCode,
  normalisePairingCode,
  redeemPairingCode,
  DISPLAY_COOKIE,
  publishCart,
  DisplayCartSchema,
} from '../display';
import { fromZod } from '../errors';
import { displayEventStream, SSE_HEADERS, streamSlots, STREAMS_PER_USER } from '../live';
import { log } from '../log';
import { readBodyText } from './body';
import { requestUser, mutationAllowed, csrfRefused } from './access';
import { clientInfo } from './client-address';
import { RateLimiter } from './rate-limit';
import { json } from './respond';
import { errorResponse } from './error-table';
import { parse, tooManyAttempts, withCookies } from './auth-routes';

/** Largest published cart: 200 lines of long names fit well within it. */
export const MAX_CART_BYTES = 64 * 1024;
/** A till publishes on each change of its cart (debounced in the browser): 10 a second, bursts of 30. */
const publishLimiter = (() => {
  const g = globalThis as { __counterDisplayPublish?: RateLimiter };
  return () => (g.__counterDisplayPublish ??= new RateLimiter({ rps: 10, burst: 30 }, 10_000));
})();

const pairBody = z.object({ code: z.string().min(1).max(40) }).strict();

const pairKey = (address: string) => `display-pair|${address}`;

type TillAccess = { ok: true; terminal: ActiveTerminal } | { ok: false; response: Response };

/** A signed-in cashier (or higher) on this browser's registered, unrevoked terminal. */
export async function tillAccess(db: Db, req: Request): Promise<TillAccess> {
  const user = await requestUser(db, req);
  if (!user) return { ok: false, response: errorResponse('unauthorized', 'sign in first') };
  if (!sessionScopes(user).includes('payments:write'))
    return { ok: false, response: errorResponse('forbidden', `the ${user.role} role may not use the till`) };
  if (!mutationAllowed(user, req)) return { ok: false, response: csrfRefused() };
  const terminal = await requestTerminal(db, req);
  // A PIN session is bound to its terminal: it counts on that terminal only.
  if (!terminal || (user.tillOnly && user.tillOnly.terminalId !== terminal.id)) {
    return { ok: false, response: errorResponse('forbidden', 'this browser is not a registered till') };
  }
  return { ok: true, terminal };
}

/** POST /api/pos/display/pairing: a pairing code for this till's customer display. */
export async function pairingCode(db: Db, req: Request): Promise<Response> {
  const a = await tillAccess(db, req);
  if (!a.ok) return a.response;
  const { code, expiresAt } = await createPairingCode(db, a.terminal.storeId, a.terminal.id);
  return json({ code: formatPairingCode(code), path: `/display?code=${code}`, expires_at: expiresAt.toISOString() }, 201);
}

/** PUT /api/pos/display/cart: what this till shows now, for its displays. */
export async function publishDisplayCart(db: Db, req: Request): Promise<Response> {
  // Limited per till before any database work (the key is a digest of its cookie, which names
  // one terminal), so a flood costs no session or terminal lookups.
  const till = cookieValue(req.headers.get('cookie'), TERMINAL_COOKIE);
  const wait = till ? publishLimiter().take(createHash('sha256').update(till).digest('base64url')) : 0;
  if (wait > 0) return errorResponse('rate_limited', `too many updates; retry in ${wait} s`, { headers: { 'Retry-After': String(wait) } });
  const a = await tillAccess(db, req);
  if (!a.ok) return a.response;
  let raw: unknown;
  try {
    raw = JSON.parse(await readBodyText(req, MAX_CART_BYTES));
  } catch (e) {
    if ((e as Error).name === 'BodyTooLargeError') throw e;
    return errorResponse('invalid_request', 'body must be JSON');
  }
  const r = DisplayCartSchema.safeParse(raw);
  if (!r.success) throw fromZod(r.error, { dotted: true });
  await publishCart(db, a.terminal, r.data); // a sale of another till: invalid_request, through lib/api/handle
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

/** POST /api/display/pair { code }: this browser becomes a display of the code's terminal. */
export async function pairDisplay(db: Db, req: Request): Promise<Response> {
  const body = await parse(req, pairBody);
  if (!body.ok) return body.response;
  const throttle = signInThrottle(db);
  const info = clientInfo(req);
  const attempt = await throttle.reserve([pairKey(info.address)]);
  if (!attempt.ok) return tooManyAttempts(attempt.retryAfter);
  const code = normalisePairingCode(body.value.code);
  const previous = cookieValue(req.headers.get('cookie'), DISPLAY_COOKIE);
  const paired = code ? await redeemPairingCode(db, code, previous) : null;
  if (!paired) {
    await throttle.failed(attempt.reservation);
    return errorResponse('unauthorized', 'wrong or expired pairing code');
  }
  await throttle.succeeded(attempt.reservation);
  return withCookies(json({ paired: true }), [displayCookie(paired.token, info.secure)]);
}

/** GET /api/display: whether this browser is a paired display (the page asks after losing its stream). */
export async function displayStatus(db: Db, req: Request): Promise<Response> {
  const display = await displayForToken(db, cookieValue(req.headers.get('cookie'), DISPLAY_COOKIE));
  return display ? json({ paired: true }) : errorResponse('unauthorized', 'this browser is not a paired display');
}

/** GET /api/display/events: the paired display's live stream (lib/live/display-feed.ts). */
export async function displayEvents(db: Db, publicUrl: string, req: Request): Promise<Response> {
  const display = await displayForToken(db, cookieValue(req.headers.get('cookie'), DISPLAY_COOKIE));
  if (!display) return errorResponse('unauthorized', 'this browser is not a paired display');
  const slot = streamSlots().acquire(`display:${display.id}`);
  if (!slot.ok) {
    return slot.reason === 'user'
      ? errorResponse('too_many_streams', `at most ${STREAMS_PER_USER} live streams may be open at once per display`, {
          headers: { 'Retry-After': '5' },
        })
      : errorResponse('unavailable', 'this server has as many live streams open as it serves; retry later', {
          headers: { 'Retry-After': '5' },
        });
  }
  const stream = displayEventStream({
    db,
    publicUrl,
    display,
    signal: req.signal,
    onClose: (reason) => {
      slot.release();
      log.debug('display feed closed', { display: display.id, reason });
    },
  });
  return new Response(stream, { status: 200, headers: { ...SSE_HEADERS, 'X-Robots-Tag': 'noindex' } });
}
