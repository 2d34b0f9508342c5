// HTTP side of the node text API (docs/node.md#node-text-api), framework-free: text answers, text errors,
// authorisation and the streamed headers file. Route handlers in app/get*/route.ts stay thin.
import type { Db } from '../db';
import { authenticateApiKey, bearerToken, hasScope, sessionScopes, sessionUser, cookieValue, SESSION_COOKIE, type Scope } from '../auth';
import { isBackendUnavailable } from '../chain';
import { log } from '../log';
import { hashToHex } from '../doge';
import { headersFileHeader, headerRecords } from './files';
import { bestTipHeight, headerPage } from './read';

const NO_STORE = { 'Cache-Control': 'no-store' } as const;

export function textResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'text/plain', ...NO_STORE, ...headers } });
}

/** Errors are text/plain with a short message (docs/protocol.md#the-node-text-api), e.g. 404 `Wallet file not found`. */
export function textError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return textResponse(message, status, headers);
}

export function binaryResponse(body: BodyInit, filename: string): Response {
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': `attachment; filename="${filename}"`, ...NO_STORE },
  });
}

/**
 * The caller's store when the request may read `scope`, else the 401 `Unauthorized` answer. Accepted: an API
 * key with the scope (`Authorization: Bearer`), or a signed-in back-office user whose role
 * grants it (the node status page links here). A key without the scope is also 401: the body
 * never says which scopes exist or what the key lacks.
 */
export async function requireNodeScope(db: Db, req: Request, scope: Scope): Promise<{ storeId: number } | { denied: Response }> {
  const auth = req.headers.get('authorization');
  // The store the caller acts for: the key's, or the session's current one (docs/architecture.md#data).
  let storeId: number | null = null;
  if (auth) {
    const key = await authenticateApiKey(db, bearerToken(auth));
    if (key && hasScope(key, scope)) storeId = key.storeId;
  } else {
    const user = await sessionUser(db, cookieValue(req.headers.get('cookie'), SESSION_COOKIE));
    if (user && sessionScopes(user).includes(scope)) storeId = user.storeId;
  }
  return storeId !== null ? { storeId } : { denied: textError(401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' }) };
}

function looksLikeDbOutage(e: unknown): boolean {
  const m = String((e as Error)?.message ?? '') + String((e as { code?: string })?.code ?? '');
  return /ECONNREFUSED|ECONNRESET|terminating connection|Connection terminated|connect ETIMEDOUT|P1001|P1017|DatabaseNotReachable|timeout exceeded when trying to connect/i.test(
    m,
  );
}

/** Runs a node endpoint: unexpected failures become 500/503 text answers, never internals. */
export async function nodeHandle(fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    if (isBackendUnavailable(e) || looksLikeDbOutage(e)) {
      log.warn('node API: service unavailable', { error: e as Error });
      return textError(503, 'Service Unavailable');
    }
    log.error('node API: unhandled error', { error: e as Error });
    return textError(500, 'Internal Server Error');
  }
}

export const HEADERS_PAGE = 2000;

/** Display hex of the previous-block hash inside an 80-byte header. */
function prevHashOf(header: Uint8Array): string {
  return hashToHex(header.subarray(4, 36));
}

/**
 * The libdogecoin headers file as a stream: the 8-byte file header, then one 148-byte record per
 * best-chain header from the lowest stored height up to the tip as it was when the download
 * started, read in pages of `pageSize` by height, so memory stays flat for millions of headers.
 */
export async function headersFileStream(db: Db, pageSize = HEADERS_PAGE): Promise<ReadableStream<Uint8Array>> {
  const top = await bestTipHeight(db);
  let after = -1;
  let lastHash: string | null = null;
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!headerSent) {
            headerSent = true;
            controller.enqueue(headersFileHeader());
            return;
          }
          const rows = after >= top ? [] : await headerPage(db, after, top, pageSize);
          if (rows.length === 0) {
            controller.close();
            return;
          }
          // Pages are separate reads: a reorg between two of them would splice two branches. Each
          // record must link to the one before; if not, the download fails rather than serve a
          // file that is not one chain (clients retry).
          for (const r of rows) {
            if (lastHash !== null && prevHashOf(r.header) !== lastHash)
              throw new Error(`the best chain changed at height ${r.height} during the download`);
            lastHash = r.hash;
          }
          after = rows[rows.length - 1].height;
          controller.enqueue(headerRecords(rows));
        } catch (e) {
          log.error('node API: headers stream failed', { error: e as Error });
          controller.error(e);
        }
      },
    },
    { highWaterMark: 0 },
  ); // read a page only when the client is ready for it
}
