'use client';
// The store's categories and their order (docs/catalog.md#category-order): the till shows its
// category tabs in this order. Categories products use but the list does not name yet come
// after the listed ones (alphabetically, as the till shows them) until the order is saved.
// Move up / Move down are plain buttons, so the keyboard reorders as well as the mouse; the
// focus stays on the moved category's button and a live region says where it went.
// Saving writes PATCH /api/admin/settings { categories }.
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { useAdminCall } from '../_components/api';

/** `listed`: the setting as stored; `initial`: the list as the page opens (lib/backoffice/categories editableCategories). */
export function CategoryOrder({ listed, initial, counts }: { listed: string[]; initial: string[]; counts: Record<string, number> }) {
  const t = useTranslations('adminCatalog');
  const ta = useTranslations('admin');
  const adminCall = useAdminCall();
  const [order, setOrder] = useState(initial);
  const [saved, setSaved] = useState(listed);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ error: boolean; text: string } | null>(null);
  const [announce, setAnnounce] = useState('');
  const focusNext = useRef<{ name: string; dir: 'up' | 'down' } | null>(null);
  const list = useRef<HTMLOListElement>(null);

  // After an import (router.refresh) the page sends new categories: start from them.
  const key = JSON.stringify([listed, initial]);
  useEffect(() => {
    setOrder(initial);
    setSaved(listed);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useEffect(() => {
    const want = focusNext.current;
    focusNext.current = null;
    if (!want || !list.current) return;
    const li = [...list.current.children].find((el) => (el as HTMLElement).dataset.category === want.name);
    const b = li?.querySelector<HTMLButtonElement>(`button[data-move="${want.dir}"]`);
    // At either end of the list that button is disabled: the other one of the pair takes the focus.
    (b && !b.disabled ? b : li?.querySelector<HTMLButtonElement>(`button[data-move="${want.dir === 'up' ? 'down' : 'up'}"]`))?.focus();
  }, [order]);

  const dirty = JSON.stringify(order) !== JSON.stringify(saved);

  function move(i: number, by: -1 | 1) {
    const j = i + by;
    if (j < 0 || j >= order.length) return;
    const next = [...order];
    [next[i], next[j]] = [next[j], next[i]];
    focusNext.current = { name: next[j], dir: by < 0 ? 'up' : 'down' };
    setOrder(next);
    setAnnounce(t('movedTo', { name: next[j], pos: j + 1, total: next.length }));
  }

  function add() {
    const n = name.trim();
    if (!n) return;
    if (order.includes(n)) return setMsg({ error: true, text: t('categoryExists', { name: n }) });
    setOrder([...order, n]);
    setName('');
    setMsg(null);
  }

  function remove(c: string) {
    setOrder(order.filter((x) => x !== c));
    setAnnounce(t('removedCategory', { name: c }));
  }

  async function save() {
    setBusy(true);
    const r = await adminCall<{ categories: string[] }>('PATCH', '/api/admin/settings', { categories: order });
    setBusy(false);
    if (!r.ok) return setMsg({ error: true, text: r.message });
    setSaved(order);
    setMsg({ error: false, text: t('orderSaved') });
  }

  return (
    <section className="bo-card" aria-labelledby="category-order-h">
      <h2 id="category-order-h">{t('categoriesHeading')}</h2>
      <p className="muted">{t('categoriesHelp')}</p>
      {order.length === 0 ? <p className="muted">{t('noCategories')}</p> : (
        <ol className="bo-products bo-categories" ref={list} data-testid="category-order">
          {order.map((c, i) => (
            <li key={c} className="bo-product" data-category={c}>
              <span className="bo-grow"><b>{c}</b> <span className="muted">{t('productsIn', { n: counts[c] ?? 0 })}</span></span>
              <button type="button" className="btn bo-btn-sm" aria-label={t('moveUp', { name: c })} disabled={i === 0}
                data-move="up" onClick={() => move(i, -1)}>↑</button>
              <button type="button" className="btn bo-btn-sm" aria-label={t('moveDown', { name: c })} disabled={i === order.length - 1}
                data-move="down" onClick={() => move(i, 1)}>↓</button>
              {(counts[c] ?? 0) === 0 ? <button type="button" className="btn bo-btn-sm" aria-label={t('removeCategory', { name: c })} onClick={() => remove(c)}>✕</button> : null}
            </li>
          ))}
        </ol>
      )}
      <p className="bo-sr-only" aria-live="polite">{announce}</p>
      <form className="bo-form-grid" onSubmit={(e) => { e.preventDefault(); add(); }}>
        <label className="field"><span>{t('newCategory')}</span><input value={name} onChange={(e) => setName(e.target.value)} maxLength={64} /></label>
        <div className="bo-form-actions">
          <button type="submit" className="btn">{t('addCategory')}</button>
          <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={busy || !dirty}>{busy ? ta('saving') : t('saveOrder')}</button>
        </div>
      </form>
      {msg ? <p role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>{msg.text}</p> : null}
    </section>
  );
}
