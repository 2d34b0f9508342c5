// Which message sections each part of the app sends to the browser. Server components read the
// whole catalog (getTranslations); only client components need messages in the page, and every
// page used to carry all four areas' sections (~24 KB of JSON in each till page). The root layout
// sends `common`, and the till, back-office and customer's checkout layouts add their own client sections
// (tests/unit/i18n-client-messages.test.ts checks every client component's namespaces are here).
import { getMessages } from 'next-intl/server';

export const CLIENT_SECTIONS = {
  root: ['common', 'errorPage'],
  pos: ['common', 'errorPage', 'till', 'payment', 'notReady', 'sales', 'receipt', 'lock', 'cash', 'display', 'shift'],
  checkout: ['common', 'errorPage', 'checkout'],
  display: ['common', 'errorPage', 'display'],
  walletCheck: ['common', 'errorPage', 'walletCheck'],
  admin: [
    'common',
    'errorPage',
    'nav',
    'admin',
    'readiness',
    'adminInvoice',
    'adminCatalog',
    'adminStock',
    'adminUsers',
    'adminTerminals',
    'adminSettings',
    'adminRates',
    'adminNode',
    'operator',
    'adminStore',
  ],
} as const satisfies Record<string, readonly string[]>;

/** The sections of the request's catalog that `area`'s client components use. */
export async function clientMessages(area: keyof typeof CLIENT_SECTIONS): Promise<Record<string, unknown>> {
  const all = (await getMessages()) as Record<string, unknown>;
  return Object.fromEntries(CLIENT_SECTIONS[area].filter((k) => k in all).map((k) => [k, all[k]]));
}
