// POST /api/auth/signup (SIGNUP=open, docs/configuration.md): a new account and its own store,
// signed in. With SIGNUP off it is 404, as an unknown path. Sign-ups are throttled per client
// address like sign-ins (lib/auth/sign-in-throttle.ts), every attempt counted: a client gets five
// at once, then has to wait longer after each.
import type { Db } from '../db';
import { AccountError, signInThrottle } from '../auth';
import { signUp } from '../operator';
import { config } from '../config';
import { clientInfo } from './client-address';
import { readBodyText } from './body';
import { errorResponse } from './error-table';
import { sameOrigin } from './access';
import { signedIn, tooManyAttempts } from './auth-routes';
import { notFoundResponse } from './not-found';

const signUpKeyOf = (address: string) => `signup|${address}`;

export async function signup(db: Db, req: Request): Promise<Response> {
  if (config().signup !== 'open') return notFoundResponse(req);
  if (!sameOrigin(req)) return errorResponse('forbidden', 'cross-origin request refused');
  let body: unknown;
  try {
    body = JSON.parse(await readBodyText(req, 4 * 1024));
  } catch (e) {
    if ((e as Error).name === 'BodyTooLargeError') throw e;
    return errorResponse('invalid_request', 'body must be JSON');
  }
  const throttle = signInThrottle(db);
  const attempt = await throttle.reserve([signUpKeyOf(clientInfo(req).address)]);
  if (!attempt.ok) return tooManyAttempts(attempt.retryAfter);
  try {
    return await signedIn(db, req, await signUp(db, body), 201);
  } catch (e) {
    if (e instanceof AccountError) return errorResponse(e.code, e.message);
    throw e;
  } finally {
    await throttle.failed(attempt.reservation); // every sign-up counts, made or refused
  }
}
