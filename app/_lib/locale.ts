// The language of this request (docs/using-counter.md#languages), for i18n/request.ts and the pages: the signed-in
// user's choice, else this browser's cookie, else Accept-Language, else English (lib/i18n).
import { cookies, headers } from 'next/headers';
import { LOCALE_COOKIE, pickLocale, type Locale } from '@/lib/i18n';
import { currentUser } from './session';

export async function requestLocale(): Promise<Locale> {
  const [jar, h] = await Promise.all([cookies(), headers()]);
  // A database that is not there yet (setup, an outage) must not take the page down with it.
  const user = await currentUser().catch(() => null);
  return pickLocale({ user: user?.locale, cookie: jar.get(LOCALE_COOKIE)?.value, acceptLanguage: h.get('accept-language') });
}
