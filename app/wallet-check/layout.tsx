import { NextIntlClientProvider } from 'next-intl';
import { clientMessages } from '@/i18n/client-messages';

// The wallet check page sends the browser only its own message section (i18n/client-messages.ts).
export default async function WalletCheckLayout({ children }: { children: React.ReactNode }) {
  return <NextIntlClientProvider messages={await clientMessages('walletCheck')}>{children}</NextIntlClientProvider>;
}
