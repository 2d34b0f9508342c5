// The cashier screen (DESIGN.md §9): a signed-in user rings up a sale and takes the payment.
import { requirePageUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { posCatalog, posStore, recentSales } from '@/lib/pos/catalog';
import { Cashier } from './cashier';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Cashier — Counter' };

export default async function PosPage({ searchParams }: { searchParams: Promise<{ denied?: string }> }) {
  const user = await requirePageUser('cashier', '/pos');
  const { denied } = await searchParams;
  const { db, cfg } = await appContext();
  const [products, store, sales] = await Promise.all([posCatalog(db), posStore(db), recentSales(db, user.id)]);
  return (
    <Cashier
      products={products}
      store={store}
      sales={sales}
      user={{ name: user.name || user.email, role: user.role }}
      denied={denied === '1'}
      demoWallet={cfg.chainBackend === 'devnet'}
    />
  );
}
