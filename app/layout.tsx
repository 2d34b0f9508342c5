import type { Metadata, Viewport } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale } from 'next-intl/server';
import './globals.css';

export const metadata: Metadata = {
  title: 'Counter — Dogecoin point of sale',
  description: 'Point of sale for merchants who take Dogecoin, with a DogeConnect payment relay and a lightweight node.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

// <html lang> follows the language in force (i18n/request.ts); client components get its messages.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body><NextIntlClientProvider>{children}</NextIntlClientProvider></body>
    </html>
  );
}
