/**
 * The colour theme: the OS's (system), or light or dark whatever the OS says. The choice is kept in
 * localStorage and shown as `data-theme` on <html>, which the stylesheets read; Monaco, which
 * has its own themes, follows through `watchDarkness`.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

export const themeChoices: readonly ThemeChoice[] = ['system', 'light', 'dark'];

const KEY = 'flow-studio.theme';
const listeners = new Set<() => void>();

function systemDark(): MediaQueryList | undefined {
  return typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
}

export function themeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Shows the stored choice; called once before the first render so nothing flashes. */
export function applyTheme(choice: ThemeChoice = themeChoice()): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused (private mode): the choice still holds for this window.
  }
  applyTheme(choice);
  for (const l of listeners) l();
}

// Another tab of the studio chose a theme: this one shows it too, rather than keep the old one until reloaded.
if (typeof addEventListener === 'function') {
  addEventListener('storage', (e) => {
    if (e.key !== KEY && e.key !== null) return;
    applyTheme();
    for (const l of listeners) l();
  });
}

/** Whether the studio shows dark now. */
export function isDark(): boolean {
  const choice = document.documentElement.dataset.theme;
  if (choice === 'dark') return true;
  if (choice === 'light') return false;
  return systemDark()?.matches ?? false;
}

/** Calls back with the darkness whenever the choice or, under `system`, the OS changes it. */
export function watchDarkness(onChange: (dark: boolean) => void): { dispose(): void } {
  const query = systemDark();
  const changed = (): void => onChange(isDark());
  query?.addEventListener('change', changed);
  listeners.add(changed);
  return {
    dispose: () => {
      query?.removeEventListener('change', changed);
      listeners.delete(changed);
    },
  };
}

/** Subscribes React to the choice (useSyncExternalStore). */
export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
