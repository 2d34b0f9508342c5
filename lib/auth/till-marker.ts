// The kept till's identity marker (docs/security.md, "The kept till"). The service worker keeps
// a copy of /pos for a flaky network, and that page names the signed-in user and lists their
// sales. The marker says whose copy it is: a cookie that page scripts may read (not httpOnly),
// set at sign-in with the session's own expiry and cleared at sign-out, whose value the till's
// page also carries. A kept copy shows nothing unless the browser still holds that same marker,
// so a sign-out anywhere, an expired session or another person's sign-in all hide it.
// The value is a one-way digest of the session token: it reveals nothing about the token.
import { createHash } from 'node:crypto';

export const TILL_COOKIE = 'counter_till';

/** The marker of the session whose cookie value is `token` (22 base64url characters). */
export function tillMarker(token: string): string {
  return createHash('sha256').update(`counter kept till\0${token}`, 'utf8').digest('base64url').slice(0, 22);
}

export function tillCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${TILL_COOKIE}=${tillMarker(token)}; Path=/; SameSite=Lax; Expires=${expiresAt.toUTCString()}${secure ? '; Secure' : ''}`;
}

export function clearedTillCookie(secure: boolean): string {
  return `${TILL_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}
