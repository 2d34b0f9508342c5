'use client';
// System / light / dark, remembered on this device (localStorage); shown on the till and in the
// back office. The choice lands on <html data-theme>, which globals.css reads.
import { useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { parseTheme, THEME_CHOICES, THEME_KEY, type ThemeChoice } from './theme';

const THEME_EVENT = 'counter-theme';
const LABEL_KEY = { system: 'themeSystem', light: 'themeLight', dark: 'themeDark' } as const satisfies Record<ThemeChoice, string>;

export function applyTheme(t: ThemeChoice) {
  const el = document.documentElement;
  if (t === 'system') delete el.dataset.theme;
  else el.dataset.theme = t;
}

export function ThemeSwitch({ className }: { className?: string }) {
  const t = useTranslations('common');
  const [theme, setTheme] = useState<ThemeChoice>('system');
  useEffect(() => {
    try {
      setTheme(parseTheme(localStorage.getItem(THEME_KEY)));
    } catch { /* private mode: system */ }
    // A page may show the switch twice (the till: in the bar, and below on a phone): both follow.
    const follow = (e: Event) => setTheme(parseTheme((e as CustomEvent<unknown>).detail));
    window.addEventListener(THEME_EVENT, follow);
    return () => window.removeEventListener(THEME_EVENT, follow);
  }, []);
  function choose(t: ThemeChoice) {
    setTheme(t);
    applyTheme(t);
    window.dispatchEvent(new CustomEvent(THEME_EVENT, { detail: t }));
    try {
      if (t === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, t);
    } catch { /* not kept, still applied */ }
  }
  return (
    <label className={`theme-switch ${className ?? ''}`}>
      <span className="theme-switch-label">{t('theme')}</span>
      <select value={theme} onChange={(e) => choose(parseTheme(e.target.value))} data-testid="theme-switch">
        {THEME_CHOICES.map((c) => <option key={c} value={c}>{t(LABEL_KEY[c])}</option>)}
      </select>
    </label>
  );
}
