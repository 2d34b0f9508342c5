// The category order's state and commands (docs/catalog.md#category-order), apart from its markup.
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { useAdminCall } from '../_components/api';

/** `listed`: the setting as stored; `initial`: the list as the page opens. */
export function useCategoryOrder(listed: string[], initial: string[]) {
  const t = useTranslations('adminCatalog');
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
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setOrder(initial);
    setSaved(listed);
  }

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

  return { order, name, setName, busy, msg, announce, list, dirty, move, add, remove, save };
}
