'use client';
// The keypad's state: what it enters (a custom item, or the fee, shipping, discount or tip), the
// amount typed so far in the pricing currency, and a custom item's name and tax rate. Applying
// adds the line or sets the extra on the cart, then goes back to a plain item, so a tip or a fee
// is never entered twice by accident.
import { useCallback, useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { keyboardKeypadKey, keypadAmount, keypadPress, taxPercentBp } from '@/lib/pos/client';
import type { Cart } from './use-cart';
import { keypadDigits } from './pricing';

export type KeypadMode = 'item' | 'fee' | 'shipping' | 'discount' | 'tip';

export function useKeypad(cart: Pick<Cart, 'addCustom' | 'setExtra'>, currency: string, setError: (m: string) => void) {
  const t = useTranslations('till');
  const [mode, setMode] = useState<KeypadMode>('item');
  const [entry, setEntry] = useState('');
  const [itemName, setItemName] = useState('');
  const [itemTax, setItemTax] = useState('');

  const reset = useCallback(() => {
    setEntry('');
    setItemName('');
    setItemTax('');
    setMode('item');
  }, []);

  function apply() {
    const k = keypadAmount(entry, currency);
    if (k === null) return;
    setError('');
    if (mode === 'item') {
      if (k <= 0n) return;
      const bp = taxPercentBp(itemTax);
      if (bp === null) {
        setError(t('taxRateError'));
        return;
      }
      const name = itemName.trim().slice(0, 200);
      cart.addCustom(k, name || ((n) => t('customAmountN', { n })), bp);
    } else {
      cart.setExtra(mode, k);
    }
    reset();
  }

  const press = (key: string) => setEntry((e) => keypadPress(e, key, keypadDigits(currency)));

  return {
    mode,
    setMode,
    entry,
    itemName,
    setItemName,
    itemTax,
    setItemTax,
    /** Whether the amount typed can be applied (the Add/Set button). */
    ready: keypadAmount(entry, currency) !== null,
    apply,
    press,
    clearEntry: () => setEntry(''),
    reset,
  };
}

export type Keypad = ReturnType<typeof useKeypad>;

/**
 * The physical keyboard: digits, "." or ",", Backspace and Enter type on the keypad, from anywhere
 * on the sale screen except a text field, a dialog or another button's Enter. Off while `active`
 * is false (the payment screen). `showKeypad` brings the keypad tab forward on the first digit.
 */
export function useKeyboardKeypad(active: boolean, keypad: Keypad, showKeypad: () => void) {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const el = e.target as HTMLElement | null;
      if (el?.closest('input, textarea, select, dialog, [contenteditable="true"]')) return;
      const k = keyboardKeypadKey(e.key);
      if (k === null) return;
      if (k === 'enter') {
        if (!keypad.entry || (el && el.closest('button, a') && !el.closest('[data-keypad]'))) return;
        e.preventDefault();
        keypad.apply();
        return;
      }
      e.preventDefault();
      showKeypad();
      keypad.press(k);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}
