import { parseTheme, THEME_COOKIE, type Theme } from './theme.js';

/** The theme this page is in: the server drew it as `data-theme` on <html>, a switch changes it there and in the cookie. */
export class ThemeSetting {
  choice = $state<Theme>('system');

  constructor() {
    if (typeof document === 'undefined') return;
    this.choice = parseTheme(document.documentElement.dataset.theme);
  }

  set(theme: Theme): void {
    this.choice = theme;
    document.documentElement.dataset.theme = theme;
    document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
  }
}

let shared: ThemeSetting | undefined;

export function themeSetting(): ThemeSetting {
  shared ??= new ThemeSetting();
  return shared;
}
