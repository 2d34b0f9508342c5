// Answers a path whose percent-escapes do not decode (`/dc/%ff`, `/relay/%`) with a clear 400
// and the security headers, before Next.js's router meets it: its own decoding would throw
// and answer a bare 500 (docs/security.md#a-malformed-path-is-a-400). The matcher sends only
// paths holding a `%` here, so other requests never run this.
import securityHeaders from './security-headers.json';

/** Paths answered in JSON, as the rest of their API is. */
const API_LIKE = /^\/(api|dc|relay|invoices|get[A-Z][A-Za-z]*)(\/|$)/;

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export function proxy(request: Request): Response | undefined {
  const { pathname } = new URL(request.url);
  if (decodes(pathname)) return undefined; // well-formed: on to the route
  const headers = new Headers(securityHeaders.map(({ key, value }) => [key, value] as [string, string]));
  headers.set('Cache-Control', 'no-store');
  const message = 'the path holds a malformed percent-escape';
  if (API_LIKE.test(pathname)) {
    headers.set('Content-Type', 'application/json; charset=utf-8');
    return new Response(JSON.stringify({ error: 'invalid_request', message }), { status: 400, headers });
  }
  headers.set('Content-Type', 'text/plain; charset=utf-8');
  return new Response(`Bad request: ${message}.\n`, { status: 400, headers });
}

export const config = {
  matcher: ['/(.*%.*)'],
};
