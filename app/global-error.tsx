'use client';
// The last error boundary: it replaces the root layout when that layout itself fails, so it brings
// its own <html> and <body> and its own messages. The language is the one the browser kept
// (LOCALE_COOKIE) or asks for; the catalog is fetched only when this screen shows.
import { useEffect, useState } from 'react';
import { NextIntlClientProvider } from 'next-intl';
import { ErrorScreen, type SegmentErrorProps } from '@/app/_lib/error-screen';
import { LOCALE_COOKIE, pickLocale, type Locale } from '@/lib/i18n';

type Messages = Record<string, unknown>;
const CATALOGS: Record<Locale, () => Promise<{ default: Messages }>> = {
  en: () => import('../messages/en.json'),
  es: () => import('../messages/es.json'),
  de: () => import('../messages/de.json'),
  pt: () => import('../messages/pt.json'),
};

function browserLocale(): Locale {
  const cookie = document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${LOCALE_COOKIE}=`))
    ?.slice(LOCALE_COOKIE.length + 1);
  return pickLocale({ cookie: cookie ?? null, acceptLanguage: navigator.languages.join(',') });
}

export default function GlobalError(props: SegmentErrorProps) {
  const [intl, setIntl] = useState<{ locale: Locale; messages: Messages } | null>(null);
  useEffect(() => {
    const locale = browserLocale();
    void CATALOGS[locale]().then((m) => setIntl({ locale, messages: { common: m.default.common, errorPage: m.default.errorPage } }));
  }, []);
  return (
    <html lang={intl?.locale ?? 'en'}>
      <body>
        {intl ? (
          <NextIntlClientProvider locale={intl.locale} messages={intl.messages}>
            <ErrorScreen {...props} />
          </NextIntlClientProvider>
        ) : null}
      </body>
    </html>
  );
}
