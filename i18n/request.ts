// next-intl without i18n routing (docs/using-counter.md#languages): no URL changes; the language
// comes from the signed-in user, the browser's cookie or Accept-Language (app/_lib/locale.ts).
// Times are formatted by lib/time/zone in the store's zone, so next-intl's own zone is only a
// default.
import { getRequestConfig } from 'next-intl/server';
import { requestLocale } from '@/app/_lib/locale';
import type { Locale } from '@/lib/i18n/locales';

const MESSAGES: Record<Locale, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('../messages/en.json'),
  es: () => import('../messages/es.json'),
  de: () => import('../messages/de.json'),
  pt: () => import('../messages/pt.json'),
};

export default getRequestConfig(async () => {
  const locale = await requestLocale();
  return { locale, messages: (await MESSAGES[locale]()).default, timeZone: 'UTC' };
});
