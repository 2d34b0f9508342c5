// The 10,000 most common passwords (docs/using-counter.md#languages), from @zxcvbn-ts/language-common: its
// `passwords` dictionary is ranked by frequency (most common first), so its first 10,000
// entries are the list. Shipped in the package: nothing is fetched at run time. The set is
// built on first use, so processes that never check a password never pay for it.
import passwords from '@zxcvbn-ts/language-common/dist/passwords.json.mjs';

export const COMMON_PASSWORD_COUNT = 10_000;

let common: Set<string> | null = null;

/** True when the password (compared case-insensitively) is one of the most common ones. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set((passwords as string[]).slice(0, COMMON_PASSWORD_COUNT).map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
