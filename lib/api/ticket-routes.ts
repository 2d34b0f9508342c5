// The open tickets' routes over HTTP (docs/counter.md#open-tickets): a till user's session only
// (password or PIN; an API key is 403), the body read as JSON, a TicketError answered through the one error table (lib/api/error-table.ts).
import type { Granted } from './vendor-route';
import { json } from './respond';
import { forbidden } from '../errors';
import { parseJsonOrUndefined, readBodyText } from './body';

export async function ticketCall(
  req: Request,
  auth: Granted,
  fn: (userId: string, body: unknown) => Promise<{ status: number; body: unknown }>,
  withBody = true,
): Promise<Response> {
  if (auth.kind !== 'session') throw forbidden('open tickets belong to the till: sign in to it (password or PIN)');
  const body = withBody && req.method !== 'GET' ? parseJsonOrUndefined(await readBodyText(req)) : undefined;
  const r = await fn(auth.user.id, body);
  return r.status === 204 ? new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } }) : json(r.body, r.status);
}
