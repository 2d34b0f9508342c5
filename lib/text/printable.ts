// The one rule for text a person types that others are shown or that is signed into an envelope
// (the store's name as vendor_name, its address, a till's name, product and category names, the
// items of a payment, the customer display's lines): no control character (C0, DEL, C1), no line
// or paragraph separator (U+2028, U+2029), no lone surrogate, and no format character (Unicode
// category Cf): the bidi embeddings, overrides, isolates and marks (U+202A–U+202E,
// U+2066–U+2069, U+200E, U+200F, U+061C), which can make a name read backwards or hide part of
// it, and the invisible ones (U+200B zero-width space, U+2060 word joiner, U+FEFF, U+00AD, the tag
// characters), which make two names that look the same differ. Two format characters stay:
// U+200C and U+200D (zero-width non-joiner and joiner), which emoji sequences and several
// scripts need and which cannot reorder text (docs/security.md#store-text-is-printable). Pure:
// the browser may use it too.
import { z } from 'zod';

/** Anything the rule refuses. */
export const UNPRINTABLE_RE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/u;
/** The same, but a line feed is allowed (a postal address is printed on several lines). */
export const UNPRINTABLE_BUT_LF_RE = /(?!\n)[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/u;

/** The message a refused field gets. */
export const UNPRINTABLE_MESSAGE = 'must not contain control characters, line separators or bidi overrides';

export function isPrintable(s: string, opts: { lineFeed?: boolean } = {}): boolean {
  return !(opts.lineFeed ? UNPRINTABLE_BUT_LF_RE : UNPRINTABLE_RE).test(s);
}

/** A name someone gives a thing (an API key, a terminal, a store): trimmed, 1 to `max` printable characters. */
export function printableName(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => isPrintable(s), UNPRINTABLE_MESSAGE);
}
