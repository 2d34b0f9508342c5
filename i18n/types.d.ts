// Type-checks translation keys against messages/en.json (next-intl AppConfig).
import type en from '../messages/en.json';
import type { Locale } from '../lib/i18n/locales';

declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
