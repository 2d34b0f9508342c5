// Locales and the words and numbers every screen formats the same way.
// What other folders use of lib/i18n: they import it from here (.dependency-cruiser.cjs, lib-through-index).
export { LOCALES, LOCALE_COOKIE, pickLocale, type Locale, LOCALE_NAMES, INTL_TAG, isLocale } from './locales';
export { dogeText, moneyText, displayDoge } from './money-text';
export { separators, localizeDecimalString } from './numbers';
export { dogeAmount, storeTime, localeNumber } from './display';
