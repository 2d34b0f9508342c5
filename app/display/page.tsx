// /display: the screen that faces the customer (docs/counter.md#the-customers-display). A paired
// browser (its display cookie) follows its till live; any other shows the Pairing code form,
// filled in from ?code= when it was opened from the till's QR code. Nothing here is signed in:
// the page names the store and nothing of its staff.
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { appContext } from '@/lib/app-context';
import { displayForToken, DISPLAY_COOKIE } from '@/lib/display';
import { posStore } from '@/lib/pos';
import { FIRST_STORE_ID } from '@/lib/stores';
import { DisplayScreen } from './display-screen';
import { PairForm } from './pair-form';
import s from './display.module.css';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('display');
  return { title: `${t('customerDisplay')} — Counter`, robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

export default async function DisplayPage({ searchParams }: { searchParams: Promise<{ code?: string | string[] }> }) {
  const { code } = await searchParams;
  const { db } = await appContext();
  const display = await displayForToken(db, (await cookies()).get(DISPLAY_COOKIE)?.value);
  // A paired display shows its till's store; one not paired yet, the installation's first store.
  const store = await posStore(db, display?.storeId ?? FIRST_STORE_ID);
  const initialCode = typeof code === 'string' ? code.slice(0, 40) : '';
  return (
    <div className={s.page}>
      {display && !initialCode ? (
        <DisplayScreen store={{ name: store.name, icon: store.icon }} />
      ) : (
        <PairForm storeName={store.name} initialCode={initialCode} />
      )}
    </div>
  );
}
