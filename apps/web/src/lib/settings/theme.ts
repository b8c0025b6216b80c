/** The page's colours: the system's scheme, or one chosen for this browser. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Read by the server, so the page is drawn in its theme from the first paint (no flash of the other one). */
export const THEME_COOKIE = 'theme';

export function parseTheme(value: string | null | undefined): Theme {
  return (THEMES as readonly (string | null | undefined)[]).includes(value) ? (value as Theme) : 'system';
}
