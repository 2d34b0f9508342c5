'use client';
// The store's categories and their order (docs/catalog.md#category-order): the till shows its
// category tabs in this order. Categories products use but the list does not name yet come
// after the listed ones (alphabetically, as the till shows them) until the order is saved.
// Move up / Move down are plain buttons, so the keyboard reorders as well as the mouse; the
// focus stays on the moved category's button and a live region says where it went.
// Saving writes PATCH /api/admin/settings { categories }.
import { useTranslations } from 'next-intl';
import { useCategoryOrder } from './use-category-order';
import { ActionButton, SubmitButton } from '@/app/_lib/action-button';

/** `listed`: the setting as stored; `initial`: the list as the page opens (lib/catalog/categories editableCategories). */
export function CategoryOrder({ listed, initial, counts }: { listed: string[]; initial: string[]; counts: Record<string, number> }) {
  const t = useTranslations('adminCatalog');
  const ta = useTranslations('admin');
  const { order, name, setName, busy, msg, announce, list, dirty, move, add, remove, save } = useCategoryOrder(listed, initial);

  return (
    <section className="bo-card" aria-labelledby="category-order-h">
      <h2 id="category-order-h">{t('categoriesHeading')}</h2>
      <p className="muted">{t('categoriesHelp')}</p>
      {order.length === 0 ? (
        <p className="muted">{t('noCategories')}</p>
      ) : (
        <ol className="bo-products bo-categories" ref={list} data-testid="category-order">
          {order.map((c, i) => (
            <li key={c} className="bo-product" data-category={c}>
              <span className="bo-grow">
                <b>{c}</b> <span className="muted">{t('productsIn', { n: counts[c] ?? 0 })}</span>
              </span>
              <ActionButton
                className="btn bo-btn-sm"
                aria-label={t('moveUp', { name: c })}
                disabled={i === 0}
                data-move="up"
                onClick={() => move(i, -1)}
              >
                ↑
              </ActionButton>
              <ActionButton
                className="btn bo-btn-sm"
                aria-label={t('moveDown', { name: c })}
                disabled={i === order.length - 1}
                data-move="down"
                onClick={() => move(i, 1)}
              >
                ↓
              </ActionButton>
              {(counts[c] ?? 0) === 0 ? (
                <ActionButton className="btn bo-btn-sm" aria-label={t('removeCategory', { name: c })} onClick={() => remove(c)}>
                  ✕
                </ActionButton>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <p className="bo-sr-only" aria-live="polite">
        {announce}
      </p>
      <form
        className="bo-form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label className="field">
          <span>{t('newCategory')}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={64} />
        </label>
        <div className="bo-form-actions">
          <SubmitButton className="btn">{t('addCategory')}</SubmitButton>
          <ActionButton className="btn btn-primary" onClick={() => void save()} disabled={busy || !dirty}>
            {busy ? ta('saving') : t('saveOrder')}
          </ActionButton>
        </div>
      </form>
      {msg ? (
        <p role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>
          {msg.text}
        </p>
      ) : null}
    </section>
  );
}
