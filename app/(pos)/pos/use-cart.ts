'use client';
// The cart of the sale being rung up: its lines, its extras (fee, shipping, discount, tip) and
// their totals, all koinu or fiat minor units as bigints (lib/pos/cart). This hook is the one owner
// of the cart: the sale screen edits it, and anything that follows the sale (the charge, a
// customer display) observes `lines`, `extras` and `totals`, whose identities change only when the
// cart does.
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { cartLineKey, cartTotals, NO_EXTRAS, type CartExtras, type CartLine, type CartTotals } from '@/lib/pos/client';
import type { PosProduct } from '@/lib/pos';

export type ExtraKind = keyof CartExtras;

export interface Cart {
  lines: CartLine[];
  extras: CartExtras;
  totals: CartTotals;
  /** Count of each product in the cart, by product id (the grid's badges). */
  inCart: Map<string, number>;
  /** One more of the product (with these options: docs/catalog.md#options); other options make another line. */
  add: (p: PosProduct, chosen?: { names: string[]; extra: bigint }) => void;
  /** One more (+1) or one less (-1) of a line; a line at 0 leaves the cart. */
  bump: (key: string, d: number) => void;
  /** A keypad line ("Custom amount 2"), numbered in this sale's order. */
  addCustom: (unit: bigint, name: string | ((n: number) => string), taxRateBp: number) => void;
  setExtra: (kind: ExtraKind, amount: bigint) => void;
  clear: () => void;
  /** Replaces the cart with a saved one (an open ticket picked up: docs/counter.md#open-tickets). */
  load: (lines: CartLine[], extras: CartExtras) => void;
}

/** `onEdit` runs on every change the cashier makes (the sale screen clears its error). */
export function useCart(onEdit: () => void = () => {}): Cart {
  const [lines, setLines] = useState<CartLine[]>([]);
  const [extras, setExtras] = useState<CartExtras>(NO_EXTRAS);
  const customN = useRef(0);
  const edited = useRef(onEdit);
  // The latest callback, set after each render (not during it) and before any click can reach it.
  useLayoutEffect(() => {
    edited.current = onEdit;
  });

  const add = useCallback((p: PosProduct, chosen?: { names: string[]; extra: bigint }) => {
    edited.current();
    const names = chosen?.names ?? [];
    const key = cartLineKey(p.id, names);
    setLines((ls) => {
      const i = ls.findIndex((l) => l.key === key);
      if (i >= 0) return ls.map((l, j) => (j === i ? { ...l, count: l.count + 1 } : l));
      const unit = BigInt(p.priceKoinu) + (chosen?.extra ?? 0n);
      return [
        ...ls,
        {
          key,
          sku: p.sku,
          name: p.name,
          icon: p.icon,
          unit,
          count: 1,
          taxRateBp: p.taxRateBp,
          productId: p.id,
          ...(names.length ? { options: names } : {}),
        },
      ];
    });
  }, []);

  const bump = useCallback((key: string, d: number) => {
    edited.current();
    setLines((ls) => ls.flatMap((l) => (l.key !== key ? [l] : l.count + d <= 0 ? [] : [{ ...l, count: l.count + d }])));
  }, []);

  const addCustom = useCallback((unit: bigint, name: string | ((n: number) => string), taxRateBp: number) => {
    edited.current();
    customN.current += 1;
    const n = customN.current;
    const shown = typeof name === 'function' ? name(n) : name;
    setLines((ls) => [...ls, { key: `custom-${n}`, sku: `CUSTOM-${n}`, name: shown, unit, count: 1, taxRateBp }]);
  }, []);

  const setExtra = useCallback((kind: ExtraKind, amount: bigint) => {
    edited.current();
    setExtras((e) => ({ ...e, [kind]: amount }));
  }, []);

  const clear = useCallback(() => {
    edited.current();
    setLines([]);
    setExtras(NO_EXTRAS);
  }, []);

  const load = useCallback((next: CartLine[], nextExtras: CartExtras) => {
    edited.current();
    // Keypad lines keep numbering after the loaded ones, so a new one never takes an existing key.
    customN.current = next.reduce((n, l) => Math.max(n, Number(/^custom-(\d+)$/.exec(l.key)?.[1] ?? 0)), 0);
    setLines(next);
    setExtras(nextExtras);
  }, []);

  const totals = useMemo(() => cartTotals(lines, extras), [lines, extras]);
  const inCart = useMemo(() => {
    const m = new Map<string, number>();
    for (const l of lines) m.set(l.productId ?? l.key, (m.get(l.productId ?? l.key) ?? 0) + l.count);
    return m;
  }, [lines]);
  return useMemo(
    () => ({ lines, extras, totals, inCart, add, bump, addCustom, setExtra, clear, load }),
    [lines, extras, totals, inCart, add, bump, addCustom, setExtra, clear, load],
  );
}
