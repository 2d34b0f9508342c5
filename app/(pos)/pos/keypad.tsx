'use client';
// The keypad pane: what the keypad enters (item, fee, shipping, discount, tip), the amount typed,
// a custom item's name and tax rate, the keys, Clear and Add/Set. State lives in useKeypad.
import { useLocale, useTranslations } from 'next-intl';
import { separators } from '@/lib/i18n';
import type { Keypad, KeypadMode } from './use-keypad';
import { keypadDisplay } from './pricing';
import { useHydrated } from '@/app/_lib/use-hydrated';
import s from './pos.module.css';

/** Message keys (messages/*.json, namespace "till") of each keypad mode and of its button. */
const MODE_LABEL = { item: 'modeItem', fee: 'modeFee', shipping: 'modeShipping', discount: 'modeDiscount', tip: 'modeTip' } as const;
const MODE_SET = { fee: 'setFee', shipping: 'setShipping', discount: 'setDiscount', tip: 'setTip' } as const;
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '0', '⌫'];

export function KeypadPane({ keypad, currency, tipsEnabled }: { keypad: Keypad; currency: string; tipsEnabled: boolean }) {
  const t = useTranslations('till');
  const locale = useLocale();
  const decimalSep = separators(locale).decimal;
  const hydrated = useHydrated();
  const { mode } = keypad;
  const modes: KeypadMode[] = tipsEnabled ? ['item', 'fee', 'shipping', 'discount', 'tip'] : ['item', 'fee', 'shipping', 'discount'];
  const enterApplies = (e: React.KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      keypad.apply();
    }
  };
  return (
    <div className={s.keypad}>
      <div className={s.modes} role="radiogroup" aria-label={t('keypadEnters')}>
        {modes.map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={mode === m}
            className={mode === m ? s.modeOn : s.mode}
            disabled={!hydrated}
            onClick={() => keypad.setMode(m)}
          >
            {t(MODE_LABEL[m])}
          </button>
        ))}
      </div>
      <output className={s.display} aria-label={t('keypadAmount')}>
        {keypadDisplay(keypad.entry, currency, locale)}
      </output>
      {mode === 'item' ? (
        <div className={s.itemFields}>
          <label>
            <span>{t('itemName')}</span>
            <input
              value={keypad.itemName}
              onChange={(e) => keypad.setItemName(e.target.value)}
              maxLength={200}
              placeholder={t('customAmount')}
              disabled={!hydrated}
              onKeyDown={enterApplies}
            />
          </label>
          <label>
            <span>{t('taxPercent')}</span>
            <input
              value={keypad.itemTax}
              onChange={(e) => keypad.setItemTax(e.target.value)}
              inputMode="decimal"
              maxLength={6}
              placeholder="0"
              disabled={!hydrated}
              onKeyDown={enterApplies}
            />
          </label>
        </div>
      ) : null}
      <div className={s.keys} data-keypad>
        {KEYS.map((k) => (
          <button
            key={k}
            type="button"
            className={s.key}
            disabled={!hydrated}
            onClick={() => keypad.press(k)}
            aria-label={k === '⌫' ? t('deleteDigit') : k === '.' ? decimalSep : k}
          >
            {k === '.' ? decimalSep : k}
          </button>
        ))}
      </div>
      <div className={s.keyActions}>
        <button type="button" className={s.secondary} disabled={!hydrated} onClick={keypad.clearEntry}>
          {t('clear')}
        </button>
        <button type="button" className={s.primary} onClick={keypad.apply} disabled={!keypad.ready}>
          {mode === 'item' ? t('addToCart') : t(MODE_SET[mode])}
        </button>
      </div>
    </div>
  );
}
