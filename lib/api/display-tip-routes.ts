// Tips on the customer's display over HTTP (docs/counter.md#tips-on-the-customers-display).
// - The till's side, /api/pos/display/tip (a session with the CSRF header on this browser's
//   registered terminal, as the till's other display routes): POST opens the wait for a tip on the
//   sale's total and answers the choices, or { "waiting": false } when no display is paired; GET
//   reads the customer's answer; DELETE ends the wait (charged, or Skip tip).
// - The display's side, POST /api/display/tip (its cookie, same origin): 204 with the answer kept,
//   409 outside its till's wait whatever the body, 400 for a bad or excessive tip.
import type { Db } from '../db';
import { z } from 'zod';
import { cookieValue } from '../auth';
import { displayForToken, DISPLAY_COOKIE, answerTip, endTipWait, startTipWait, tipWaitOf } from '../display';
import { fromZod } from '../errors';
import { parseJsonOrUndefined, readBodyText } from './body';
import { sameOrigin } from './access';
import { errorResponse } from './error-table';
import { json } from './respond';
import { tillAccess } from './display-routes';

const StartBody = z
  .object({
    total: z.string().regex(/^\d{1,20}$/, 'must be the sale total in minor units'),
    currency: z.string().regex(/^[A-Z]{3,5}$/, 'must be a currency code'),
  })
  .strict();

const noContent = () => new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });

/** /api/pos/display/tip: the till opens (POST), reads (GET) or ends (DELETE) its wait for a tip. */
export async function tillTip(db: Db, req: Request): Promise<Response> {
  const a = await tillAccess(db, req);
  if (!a.ok) return a.response;
  const till = a.terminal;
  if (req.method === 'GET') {
    const wait = await tipWaitOf(db, till);
    return json({ waiting: wait !== null, answer: wait?.answer ?? null });
  }
  if (req.method === 'DELETE') {
    await endTipWait(db, till);
    return noContent();
  }
  const r = StartBody.safeParse(parseJsonOrUndefined(await readBodyText(req)));
  if (!r.success) throw fromZod(r.error, { dotted: true });
  const screen = await startTipWait(db, till, BigInt(r.data.total), r.data.currency);
  return screen ? json({ waiting: true, ...screen }, 201) : json({ waiting: false });
}

/** POST /api/display/tip: the customer's choice, from the display that faces them. */
export async function displayTip(db: Db, req: Request): Promise<Response> {
  if (!sameOrigin(req)) return errorResponse('forbidden', 'cross-origin request refused');
  const display = await displayForToken(db, cookieValue(req.headers.get('cookie'), DISPLAY_COOKIE));
  if (!display) return errorResponse('unauthorized', 'this browser is not a paired display');
  await answerTip(db, display, parseJsonOrUndefined(await readBodyText(req, 1024)));
  return noContent();
}
