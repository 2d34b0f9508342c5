import { NextIntlClientProvider } from 'next-intl';
import { clientMessages } from '@/i18n/client-messages';

// The customer's display sends the browser only its own message sections
// (i18n/client-messages.ts): nothing of the till's or the back office's.
export default async function DisplayLayout({ children }: { children: React.ReactNode }) {
  return <NextIntlClientProvider messages={await clientMessages('display')}>{children}</NextIntlClientProvider>;
}
