// The one rule for text a person types that others are shown or that is signed into an envelope
// (the store's name as vendor_name, its address, category names, the customer display's lines):
// no control character (C0, DEL, C1), no line or paragraph separator (U+2028, U+2029), and no bidi
// embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which can make a name read
// backwards or hide part of it (docs/security.md#store-text-is-printable). Pure: the browser may
// use it too.

/** Anything the rule refuses. */
export const UNPRINTABLE_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The same, but a line feed is allowed (a postal address is printed on several lines). */
export const UNPRINTABLE_BUT_LF_RE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The message a refused field gets. */
export const UNPRINTABLE_MESSAGE = 'must not contain control characters, line separators or bidi overrides';

export function isPrintable(s: string, opts: { lineFeed?: boolean } = {}): boolean {
  return !(opts.lineFeed ? UNPRINTABLE_BUT_LF_RE : UNPRINTABLE_RE).test(s);
}
