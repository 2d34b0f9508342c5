'use client';
// System / light / dark, remembered on this device (localStorage); shown on the till and in the
// back office. The choice lands on <html data-theme>, which globals.css reads.
import { useTranslations } from 'next-intl';
import { parseTheme, THEME_CHOICES, THEME_KEY, type ThemeChoice } from './theme';
import { useStoredChoice } from './use-stored-choice';

const LABEL_KEY = { system: 'themeSystem', light: 'themeLight', dark: 'themeDark' } as const satisfies Record<ThemeChoice, string>;

export function applyTheme(t: ThemeChoice) {
  const el = document.documentElement;
  if (t === 'system') delete el.dataset.theme;
  else el.dataset.theme = t;
}

export function ThemeSwitch({ className }: { className?: string }) {
  const t = useTranslations('common');
  // A page may show the switch twice (the till: in the bar, and below on a phone): both follow.
  const [stored, store] = useStoredChoice(THEME_KEY);
  const theme = parseTheme(stored);
  function choose(t: ThemeChoice) {
    applyTheme(t);
    store(t === 'system' ? null : t);
  }
  return (
    <label className={`theme-switch ${className ?? ''}`}>
      <span className="theme-switch-label">{t('theme')}</span>
      <select value={theme} onChange={(e) => choose(parseTheme(e.target.value))} data-testid="theme-switch">
        {THEME_CHOICES.map((c) => (
          <option key={c} value={c}>
            {t(LABEL_KEY[c])}
          </option>
        ))}
      </select>
    </label>
  );
}
