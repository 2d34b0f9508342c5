// The answer for a path no route serves, in the vocabulary of whoever asked: the vendor API
// and the relay answer JSON `not_found`; a browser gets a small HTML page; everything else
// (operators reading the node endpoints with curl) gets the node API's text/plain `Not Found`
// (docs/protocol.md#the-node-text-api).
import { errorResponse } from './error-table';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found · Counter</title>
<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#fafaf7;color:#222}main{text-align:center;padding:2rem}a{color:#8a5a00}</style></head>
<body><main><h1>Page not found</h1><p>There is nothing at this address.</p><p><a href="/">Back to Counter</a></p></main></body></html>`;

export function notFoundResponse(req: Request): Response {
  const path = new URL(req.url).pathname;
  if (path.startsWith('/api/') || path.startsWith('/relay/')) return errorResponse('not_found', 'no such endpoint');
  const head = req.method.toUpperCase() === 'HEAD';
  if (/\btext\/html\b/.test(req.headers.get('accept') ?? '')) {
    return new Response(head ? null : PAGE, {
      status: 404,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  }
  return new Response(head ? null : 'Not Found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}
