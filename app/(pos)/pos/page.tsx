// The cashier screen (docs/using-counter.md#the-till-pos): a signed-in user rings up a sale and takes the payment.
import { currentTerminal, requirePageUser } from '@/app/_lib/session';
import { roleAtLeast, userStores } from '@/lib/auth';
import { appContext } from '@/lib/app-context';
import { posCatalog, posCategories, posStore, recentSales } from '@/lib/pos';
import { readReadiness } from '@/lib/health';
import { Cashier } from './cashier';
import { RegisterServiceWorker } from './offline';
import { KeptTillGuard } from './kept-till-guard';
import { findStore } from '@/lib/stores';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Cashier — Counter' };

export default async function PosPage({ searchParams }: { searchParams: Promise<{ denied?: string }> }) {
  const user = await requirePageUser('cashier', '/pos');
  const { denied } = await searchParams;
  const { db, cfg, network } = await appContext();
  const [products, store, sales, readiness, terminal, lock, memberships] = await Promise.all([
    posCatalog(db, user.storeId),
    posStore(db, user.storeId),
    recentSales(db, user.storeId, user.id),
    readReadiness(cfg, db, user.storeId, network),
    currentTerminal(),
    findStore(db, user.storeId),
    userStores(db, user.id),
  ]);
  const categories = await posCategories(db, user.storeId, products);
  return (
    <>
      {/* first, before anything that names the user: see kept-till-guard.tsx */}
      <KeptTillGuard />
      <RegisterServiceWorker />
      <Cashier
        products={products}
        categories={categories}
        store={store}
        sales={sales}
        user={{ name: user.name || user.email, role: user.role, tillOnly: !!user.tillOnly }}
        device={{
          terminal: terminal?.name ?? null,
          canRegister: !user.tillOnly && roleAtLeast(user.role, 'manager'),
          lockSec: lock?.tillLockSec ?? 300,
        }}
        stores={{ list: memberships.map(({ id, name }) => ({ id, name })), current: user.storeId }}
        denied={denied === '1'}
        demoWallet={cfg.chainBackend === 'devnet'}
        readiness={{ ready: readiness.ready, codes: readiness.problems.map((p) => p.code) }}
      />
    </>
  );
}
