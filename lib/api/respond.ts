// JSON answers for route handlers (web-standard Response, no framework imports). Error answers
// come from lib/api/error-table.ts alone.
export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
  });
}

/** 500/503 without a body: the spec's "transient server error". */
export function transient(status: 500 | 503 = 503, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { ...NO_STORE, ...headers } });
}
