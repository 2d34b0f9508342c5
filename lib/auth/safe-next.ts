// Where to go after sign-in (docs/security.md: redirects stay on this origin, whatever `next` holds).
// Browsers drop tabs and newlines from URLs and treat "\" like "/", so "/\t/evil.example" or
// "/\\evil.example" would leave the site: only a path that starts with a single "/" (not
// followed by "/" or "\"), with no control character or whitespace anywhere, is followed.
// The path is returned as the URL parser serialises it, percent-encoded: it becomes a Location
// header, and a character above U+00FF there ("/%E3%80%82evil" decoded to "/。evil") made
// Node refuse the header, a 500 for a signed-in visitor (docs/security.md).
// No Node imports: the sign-in form (a client component) uses it too.

const UNSAFE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;

/** `next` when it is a same-origin path, else `fallback`. */
export function safeNextPath(next: unknown, fallback: string): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return fallback;
  if (next[0] !== '/' || next[1] === '/' || UNSAFE.test(next)) return fallback;
  try {
    const base = 'http://counter.invalid';
    const u = new URL(next, base);
    if (u.origin !== base) return fallback;
    const path = u.pathname + u.search + u.hash; // ASCII only: every other character percent-encoded
    return /^\/(?![/\\])[\x21-\x7e]*$/.test(path) ? path : fallback;
  } catch {
    return fallback;
  }
}
