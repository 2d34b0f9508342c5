// The languages of the till and the back office (docs/using-counter.md#languages): English (the default), Spanish,
// German and Portuguese, chosen per user; a user who has not chosen starts from the browser's
// Accept-Language. Pure: no Next.js, no database.

export const LOCALES = ['en', 'es', 'de', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language in its own words, for the language control. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español', de: 'Deutsch', pt: 'Português' };

/** The cookie that keeps the language of a browser (signed out, or before the user's choice is read). */
export const LOCALE_COOKIE = 'counter_locale';

/**
 * The BCP 47 tag used for number and date formats: Portuguese is Brazil's (the larger Dogecoin
 * community), the others their main region.
 */
export const INTL_TAG: Record<Locale, string> = { en: 'en-US', es: 'es-ES', de: 'de-DE', pt: 'pt-BR' };

export function isLocale(x: unknown): x is Locale {
  return typeof x === 'string' && (LOCALES as readonly string[]).includes(x);
}

/**
 * The best of our languages for an Accept-Language header ("de-CH,de;q=0.9,en;q=0.8"): by q
 * value, then order; a region matches its language ("pt-BR" → pt); "*" or nothing known gives
 * null. Malformed parts are skipped, never thrown.
 */
export function negotiateLocale(header: string | null | undefined): Locale | null {
  if (!header || header.length > 1000) return null;
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qp ? Number(qp.slice(2)) : 1;
      return { lang: tag.trim().toLowerCase().split('-')[0], q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((x) => x.q > 0 && /^[a-z]{2,3}$/.test(x.lang))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.map((x) => x.lang).find(isLocale) ?? null;
}

/** The language in force: the user's choice, else this browser's cookie, else Accept-Language, else English. */
export function pickLocale(src: { user?: string | null; cookie?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(src.user)) return src.user;
  if (isLocale(src.cookie)) return src.cookie;
  return negotiateLocale(src.acceptLanguage) ?? DEFAULT_LOCALE;
}
