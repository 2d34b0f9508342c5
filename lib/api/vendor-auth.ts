// Authorisation for the vendor API: a bearer API key with the needed scope.
import type { Db } from '../db/client';
import { authenticateApiKey, bearerToken, hasScope, type ApiPrincipal, type Scope } from '../auth';
import { jsonError } from './respond';

export type AuthResult = { ok: true; principal: ApiPrincipal } | { ok: false; response: Response };

export async function requireApiScope(db: Db, req: Request, scope: Scope): Promise<AuthResult> {
  const principal = await authenticateApiKey(db, bearerToken(req.headers.get('authorization')));
  if (!principal) {
    return { ok: false, response: jsonError(401, 'unauthorized', 'a valid API key is required (Authorization: Bearer <key>)', { 'WWW-Authenticate': 'Bearer' }) };
  }
  if (!hasScope(principal, scope)) return { ok: false, response: jsonError(403, 'forbidden', `this API key lacks the ${scope} scope`) };
  return { ok: true, principal };
}
