'use client';
// Keyboard-wedge barcode scanners (docs/catalog.md): a USB or Bluetooth scanner "types" the code,
// one key every few milliseconds, then Enter. A person types far slower, so the timing tells
// them apart: keys are held back while they come in a burst, and
//  - Enter right after a burst of SCAN_MIN_LENGTH or more keys is a scan: onScan gets the code and
//    neither the keys nor the Enter reach the rest of the till (the keypad, a focused button);
//  - otherwise (a pause, another key) the held keys are handed on in order, as typed.
// Text fields are left alone: what is typed there is the field's (the search box takes a scanned
// code itself and adds its first match on Enter).
import { useEffect, useRef } from 'react';

/**
 * A scan's keys, Enter included, come on average at most SCAN_AVG_GAP_MS apart (a scanner types
 * a key every few ms; a person typing 850 keys a minute, far past a cashier's pace, takes 70 ms), and no pause in it is
 * longer than SCAN_MAX_GAP_MS (room for a busy browser). A held key is handed on after that pause.
 */
export const SCAN_AVG_GAP_MS = 70;
export const SCAN_MAX_GAP_MS = 150;
/** The shortest code taken as a scan. */
export const SCAN_MIN_LENGTH = 3;

const TEXT_FIELD =
  'input:not([type=button]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=reset]):not([type=range]), textarea, select, [contenteditable=""], [contenteditable="true"], dialog';
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);

export function useBarcodeScanner(enabled: boolean, onScan: (code: string) => void): void {
  const scan = useRef(onScan);
  useEffect(() => {
    scan.current = onScan;
  });

  useEffect(() => {
    if (!enabled) return;
    let held: { e: KeyboardEvent; at: number }[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const replayed = new WeakSet<Event>();

    const dispatch = (target: EventTarget | null, e: KeyboardEvent) => {
      const copy = new KeyboardEvent('keydown', { key: e.key, code: e.code, shiftKey: e.shiftKey, bubbles: true, cancelable: true });
      replayed.add(copy);
      (target ?? window).dispatchEvent(copy);
    };
    /** Hands the held keys on, in order, as a person typed them. */
    const release = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const keys = held;
      held = [];
      for (const k of keys) dispatch(k.e.target, k.e);
    };
    const isScan = (now: number) =>
      held.length >= SCAN_MIN_LENGTH &&
      now - held[held.length - 1].at <= SCAN_MAX_GAP_MS &&
      (now - held[0].at) / held.length <= SCAN_AVG_GAP_MS;

    const onKey = (e: KeyboardEvent) => {
      if (replayed.has(e) || MODIFIERS.has(e.key)) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.(TEXT_FIELD)) return;
      // When the key arrived, not when a busy page got round to it: a re-render between two keys
      // of a scan must not make the scanner look like a person.
      const now = e.timeStamp || performance.now();
      const typed = e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey;
      if (typed) {
        e.preventDefault();
        e.stopImmediatePropagation();
        held.push({ e, at: now });
        if (timer) clearTimeout(timer);
        timer = setTimeout(release, SCAN_MAX_GAP_MS);
        return;
      }
      if (held.length === 0) return;
      if (e.key === 'Enter' && isScan(now)) {
        e.preventDefault();
        e.stopImmediatePropagation();
        const code = held.map((k) => k.e.key).join('');
        held = [];
        if (timer) clearTimeout(timer);
        timer = null;
        scan.current(code);
        return;
      }
      release();
      if (e.key !== 'Enter') return; // the key itself goes on as usual, after the held ones
      // Enter acts on what the held keys typed, so it waits for the till to take them in.
      e.preventDefault();
      e.stopImmediatePropagation();
      setTimeout(() => {
        if (target && target.closest('button, a') && !target.closest('[data-keypad]')) target.click();
        else dispatch(target, e);
      }, 0);
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      if (timer) clearTimeout(timer);
    };
  }, [enabled]);
}
