import { NextIntlClientProvider } from 'next-intl';
import { clientMessages } from '@/i18n/client-messages';

// The till's pages (sale, receipt, shift) send the browser the message sections their client
// components use (i18n/client-messages.ts), not the back office's.
export default async function PosLayout({ children }: { children: React.ReactNode }) {
  return <NextIntlClientProvider messages={await clientMessages('pos')}>{children}</NextIntlClientProvider>;
}
