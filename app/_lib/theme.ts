// The colour theme (docs/using-counter.md#light-and-dark): "system" follows prefers-color-scheme; "light" and "dark" are a
// choice kept on this device (localStorage), applied as <html data-theme> before first paint.
export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_KEY = 'counter.theme';
export const THEME_CHOICES: ThemeChoice[] = ['system', 'light', 'dark'];

export function parseTheme(v: unknown): ThemeChoice {
  return v === 'light' || v === 'dark' ? v : 'system';
}

/** Runs inline in <head>: no flash of the wrong theme. Kept tiny and free of imports. */
export const THEME_BOOT_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)});if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;
