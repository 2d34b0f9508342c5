import type { Metadata, Viewport } from 'next';
import { THEME_BOOT_SCRIPT } from './_lib/theme';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale } from 'next-intl/server';
import { clientMessages } from '@/i18n/client-messages';
import './globals.css';

export const metadata: Metadata = {
  title: 'Counter — Dogecoin point of sale',
  description: 'Point of sale for merchants who take Dogecoin, with a DogeConnect payment relay and a lightweight node.',
  applicationName: 'Counter',
  appleWebApp: { capable: true, title: 'Counter', statusBarStyle: 'default' },
  icons: { apple: '/icons/apple-touch-icon.png' },
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f7f5ef' },
    { media: '(prefers-color-scheme: dark)', color: '#16140f' },
  ],
};

// The theme (system, light or dark, kept on this device) is set on <html> by a tiny inline
// script before the first paint, so a dark till never flashes light; hence the hydration
// warning is suppressed on <html> alone. <html lang> follows the language in force
// (i18n/request.ts); client components get the sections they use (i18n/client-messages.ts:
// here the shared ones, the till and back-office layouts add theirs).
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [locale, messages] = await Promise.all([getLocale(), clientMessages('root')]);
  return (
    <html lang={locale} suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body>
        <NextIntlClientProvider messages={messages}>{children}</NextIntlClientProvider>
      </body>
    </html>
  );
}
