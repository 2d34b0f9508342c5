// The Connect Payment's JSON text as the relay signs it (docs/relay.md, "Payload bytes any
// decoder reads"). Every UTF-16 code unit outside printable ASCII (U+0020..U+007E), and each of
// `>`, `?` and `~`, is written as a `\uXXXX` escape (so a character beyond U+FFFF becomes its
// surrogate pair). The bytes are then ASCII in which no byte is 0x3E, 0x3F, 0x7E or 0x7F, the
// only ASCII bytes that can put a 6-bit group of 62 or 63 into Base64: the standard Base64 text
// holds no `+` and no `/`, and a wallet that decodes it with a URL-safe decoder (one in the wild
// does) reads the same bytes. JSON.parse gives back the identical value.

// Code units to escape: controls (JSON.stringify already escapes U+0000..U+001F), `>`, `?`,
// `~`, DEL and everything above it. Lone surrogates come out of JSON.stringify already escaped.
const UNSAFE = /[\u0000-\u001f>?~\u007f-\uffff]/g;

const escapeUnit = (c: string) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');

/** JSON text of `value` with every unsafe code unit escaped as `\uXXXX` (lowercase hex). */
export function payloadJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text.replace(UNSAFE, escapeUnit);
}
