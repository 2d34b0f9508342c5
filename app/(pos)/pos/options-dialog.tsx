'use client';
// The options dialog (docs/catalog.md#options): tapping a product that has option groups opens
// a modal named after it, one fieldset per group (its legend the group's name), radio buttons
// where the group takes at most one option and checkboxes otherwise, and Add to sale, enabled
// once every group's minimum is met. The chosen options reach the cart as one line.
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { PosOptionGroup, PosProduct } from '@/lib/pos';
import { Money } from './pricing';
import s from './pos.module.css';

export interface ChosenOptions {
  names: string[];
  extra: bigint;
}

/** The options chosen, in the catalog's order, and what they add to the unit price. */
function chosenOf(groups: readonly PosOptionGroup[], picked: readonly Set<string>[]): ChosenOptions {
  const names: string[] = [];
  let extra = 0n;
  groups.forEach((g, i) =>
    g.options.forEach((o) => {
      if (!picked[i]?.has(o.name)) return;
      names.push(o.name);
      extra += BigInt(o.price);
    }),
  );
  return { names, extra };
}

export function OptionsDialog({
  product,
  currency,
  onAdd,
  onCancel,
}: {
  product: PosProduct;
  currency: string;
  onAdd: (p: PosProduct, chosen: ChosenOptions) => void;
  onCancel: () => void;
}) {
  const t = useTranslations('till');
  const ref = useRef<HTMLDialogElement>(null);
  const groups = product.optionGroups;
  const [picked, setPicked] = useState<Set<string>[]>(() => groups.map(() => new Set()));
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const ready = groups.every((g, i) => (picked[i]?.size ?? 0) >= g.min);
  const toggle = (i: number, name: string, single: boolean) =>
    setPicked((ps) =>
      ps.map((set, j) => {
        if (j !== i) return set;
        if (single) return new Set(name ? [name] : []);
        const next = new Set(set);
        if (next.has(name)) next.delete(name);
        else next.add(name);
        return next;
      }),
    );
  const chosen = chosenOf(groups, picked);
  const titleId = `options-${product.id}`;
  return (
    <dialog
      ref={ref}
      className={`${s.dialog} ${s.optionsDialog}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{product.name}</h2>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) onAdd(product, chosen);
        }}
      >
        {groups.map((g, i) => (
          <OptionGroupFields key={g.name} group={g} index={i} picked={picked[i] ?? new Set()} currency={currency} onToggle={toggle} />
        ))}
        <p className={s.optionsTotal}>
          {t('optionsPrice')} <Money currency={currency} k={BigInt(product.priceKoinu) + chosen.extra} />
        </p>
        <div className={s.dialogActions}>
          <button type="button" className={s.secondary} onClick={onCancel}>
            {t('optionsCancel')}
          </button>
          <button type="submit" className={s.primary} disabled={!ready}>
            {t('addToSale')}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function OptionGroupFields({
  group: g,
  index,
  picked,
  currency,
  onToggle,
}: {
  group: PosOptionGroup;
  index: number;
  picked: Set<string>;
  currency: string;
  onToggle: (i: number, name: string, single: boolean) => void;
}) {
  const t = useTranslations('till');
  const single = g.max === 1;
  const full = picked.size >= g.max;
  const hint =
    g.min > 0 && g.min === g.max
      ? t('chooseExactly', { n: g.min })
      : g.min > 0
        ? t('chooseAtLeast', { min: g.min, max: g.max })
        : t('chooseUpTo', { max: g.max });
  return (
    <fieldset className={s.optionGroup}>
      <legend>
        {g.name} <small className={s.optionHint}>{hint}</small>
      </legend>
      {single && g.min === 0 ? (
        <label className={s.optionRow}>
          <input type="radio" name={`opt-${index}`} checked={picked.size === 0} onChange={() => onToggle(index, '', true)} />
          <span>{t('optionNone')}</span>
        </label>
      ) : null}
      {g.options.map((o) => (
        <label key={o.name} className={s.optionRow}>
          <input
            type={single ? 'radio' : 'checkbox'}
            name={`opt-${index}`}
            checked={picked.has(o.name)}
            disabled={!single && full && !picked.has(o.name)}
            onChange={() => onToggle(index, o.name, single)}
          />
          <span>{o.name}</span>
          {BigInt(o.price) > 0n ? (
            <span className={s.optionPrice}>
              +<Money currency={currency} k={BigInt(o.price)} />
            </span>
          ) : null}
        </label>
      ))}
    </fieldset>
  );
}
