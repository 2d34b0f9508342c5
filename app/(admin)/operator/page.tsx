// The operator's stores (docs/architecture.md#data): New store with its owner's invite, and a row
// per store with Suspend or Resume. Only the operator: anyone else is sent to the sign-in or
// back to the back office.
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { backOfficeUser } from '@/app/_lib/session';
import { appContext } from '@/lib/app-context';
import { isOperator } from '@/lib/auth';
import { operatorStores } from '@/lib/operator';
import { OperatorStores } from './operator-stores';

export const dynamic = 'force-dynamic';

export default async function OperatorPage() {
  const user = await backOfficeUser();
  if (!user) redirect('/login?next=%2Foperator');
  const { db } = await appContext();
  if (!(await isOperator(db, user.id))) redirect('/admin?denied=1');
  const t = await getTranslations('operator');
  return (
    <>
      <div className="bo-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </div>
      <OperatorStores initial={await operatorStores(db)} />
    </>
  );
}
