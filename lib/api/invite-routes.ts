// The invite page's two actions (docs/architecture.md#data): a visitor without a session takes
// the invite with a new account and is signed in; a signed-in user accepts it and its session
// then acts for the new store. Both answer 404 for a used, expired or unknown invite.
import type { Db } from '../db';
import { AccountError, SESSION_COOKIE, cookieValue, switchSessionStore, userStores } from '../auth';
import { acceptInvite, takeInviteWithAccount } from '../operator';
import { readBodyText } from './body';
import { json } from './respond';
import { errorResponse } from './error-table';
import { requestUser, mutationAllowed, csrfRefused, sameOrigin } from './access';
import { signedIn } from './auth-routes';

const MAX_BODY = 4 * 1024;

/** POST /api/invites/<token>/account { "name", "password" }: 201 signed in as the store's new owner. */
export async function inviteAccount(db: Db, req: Request, token: string): Promise<Response> {
  // No session yet, so no CSRF token: a cross-site form must still not create the account.
  if (!sameOrigin(req)) return errorResponse('forbidden', 'cross-origin request refused');
  let body: unknown;
  try {
    body = JSON.parse(await readBodyText(req, MAX_BODY));
  } catch (e) {
    if ((e as Error).name === 'BodyTooLargeError') throw e;
    return errorResponse('invalid_request', 'body must be JSON');
  }
  try {
    return await signedIn(db, req, await takeInviteWithAccount(db, token, body), 201);
  } catch (e) {
    // The account's message, without the field in front of it, under the account's code.
    if (e instanceof AccountError) return errorResponse(e.code, e.message);
    throw e;
  }
}

/** POST /api/invites/<token>/accept: the signed-in user becomes the store's owner and acts for it. */
export async function inviteAccept(db: Db, req: Request, token: string): Promise<Response> {
  if (!sameOrigin(req)) return errorResponse('forbidden', 'cross-origin request refused');
  const sessionToken = cookieValue(req.headers.get('cookie'), SESSION_COOKIE);
  const user = await requestUser(db, req);
  if (!user || !sessionToken) return errorResponse('unauthorized', 'sign in to accept the invite');
  if (!mutationAllowed(user, req)) return csrfRefused();
  if (user.tillOnly) return errorResponse('forbidden', 'a PIN opens the till only: sign in with your password');
  const storeId = await acceptInvite(db, token, user.id);
  await switchSessionStore(db, sessionToken, user.id, storeId);
  const store = (await userStores(db, user.id)).find((s) => s.id === storeId);
  return json({ store });
}
