// Product categories (docs/catalog.md): a product names its category, and the store's setting
// `categories` is the order the till shows them in. A product's category that is not in the list
// still shows, after the listed ones, alphabetically, so nothing is ever hidden by a stale list.
import { z } from 'zod';
import { isPrintable, UNPRINTABLE_MESSAGE } from '../text';

export const MAX_CATEGORIES = 200;

export const CategoryName = z
  .string()
  .refine((s) => isPrintable(s), UNPRINTABLE_MESSAGE) // shown on the till's tabs (lib/text/printable.ts)
  .pipe(z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'));

/** The `categories` setting: distinct names, in the store's order. */
export const CategoriesSetting = z
  .array(CategoryName)
  .max(MAX_CATEGORIES, `must have at most ${MAX_CATEGORIES} categories`)
  .refine((a) => new Set(a).size === a.length, 'must not name a category twice');

/** The stored JSON value as a list of names (anything else stored reads as no order). */
export function storedCategories(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The categories to show, in order: the listed ones that products use, then the products' other
 * categories alphabetically. "" (no category) is never a tab of its own.
 */
export function orderCategories(listed: readonly string[], used: Iterable<string>): string[] {
  const inUse = new Set([...used].filter((c) => c !== ''));
  const known = listed.filter((c) => inUse.has(c));
  const rest = [...inUse].filter((c) => !listed.includes(c)).sort((a, b) => a.localeCompare(b));
  return [...known, ...rest];
}

/**
 * The list the catalog page edits: the setting's order (categories no product uses yet too),
 * then the products' other categories alphabetically, as the till would show them.
 */
export function editableCategories(listed: readonly string[], used: Iterable<string>): string[] {
  const rest = [...new Set(used)].filter((c) => c !== '' && !listed.includes(c)).sort((a, b) => a.localeCompare(b));
  return [...listed, ...rest];
}
