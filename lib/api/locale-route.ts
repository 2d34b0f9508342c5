// POST /api/auth/locale { "locale": "de" }: the language control (docs/using-counter.md#languages). Signed in, the
// choice is saved on the user (CSRF token required) and follows them to any device; signed out
// (the sign-in page), only this browser's cookie is set. Either way the cookie is set too.
import { z } from 'zod';
import type { Db } from '../db';
import { LOCALES, LOCALE_COOKIE } from '../i18n';
import { readBodyText } from './body';
import { json } from './respond';
import { errorResponse } from './error-table';
import { requestUser, mutationAllowed, csrfRefused, sameOrigin } from './access';
import { clientInfo } from './client-address';

const body = z.object({ locale: z.enum(LOCALES) }).strict();
const YEAR_S = 365 * 24 * 3600;

export function localeCookie(locale: string, secure: boolean): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; SameSite=Lax; Max-Age=${YEAR_S}${secure ? '; Secure' : ''}`;
}

export async function setLocale(db: Db, req: Request): Promise<Response> {
  if (!sameOrigin(req)) return errorResponse('forbidden', 'cross-origin request refused');
  const user = await requestUser(db, req);
  if (user && !mutationAllowed(user, req)) return csrfRefused();
  const text = await readBodyText(req, 1024); // too large: 413 from handle()
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return errorResponse('invalid_request', 'body must be JSON');
  }
  const parsed = body.safeParse(raw);
  if (!parsed.success) return errorResponse('invalid_request', `locale: one of ${LOCALES.join(', ')}`);
  const { locale } = parsed.data;
  if (user) await db.prisma.user.update({ where: { id: user.id }, data: { locale } });
  return json({ locale, saved: user !== null }, 200, { 'Set-Cookie': localeCookie(locale, clientInfo(req).secure) });
}
