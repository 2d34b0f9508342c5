// Authorisation for the operator's routes (/api/operator/*, docs/architecture.md#data): the
// operator's own session only. No credentials is 401; any API key, and any other session (an
// owner of a store included), is 403. Mutations need the session's CSRF token and same origin.
import { authenticateApiKey, bearerToken, isOperator, type SessionUser } from '../auth';
import { requestUser, mutationAllowed, csrfRefused } from './access';
import { errorResponse } from './error-table';
import { handle } from './handle';
import { appContext, type AppContext } from '../app-context';

export function operatorRoute(req: Request, fn: (ctx: AppContext, user: SessionUser) => Promise<Response>): Promise<Response> {
  return handle(async () => {
    const ctx = await appContext();
    const auth = req.headers.get('authorization');
    if (auth) {
      if (!(await authenticateApiKey(ctx.db, bearerToken(auth)))) return errorResponse('unauthorized', 'sign in as the operator');
      return errorResponse('forbidden', "the operator's routes take the operator's session, never an API key");
    }
    const user = await requestUser(ctx.db, req);
    if (!user) return errorResponse('unauthorized', 'sign in as the operator');
    if (user.tillOnly || !(await isOperator(ctx.db, user.id))) return errorResponse('forbidden', 'only the operator may do this');
    if (!mutationAllowed(user, req)) return csrfRefused();
    return fn(ctx, user);
  });
}
