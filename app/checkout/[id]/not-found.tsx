// An unknown, malformed or refund id on /checkout/<id>: a 404 page in the customer's language.
import { getTranslations } from 'next-intl/server';
import s from './checkout.module.css';

export default async function CheckoutNotFound() {
  const t = await getTranslations('checkout');
  return (
    <main className={s.page}>
      <section className={s.missing} data-testid="checkout-not-found">
        <h1>{t('notFound')}</h1>
        <p>{t('notFoundDetail')}</p>
      </section>
    </main>
  );
}
