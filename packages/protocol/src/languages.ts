/** The languages of the interface; Vietnamese first, it is the game's own. */
export const LANGUAGES = ['vi', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];

export const LANG_COOKIE = 'lang';

export function isLang(value: unknown): value is Lang {
  return value === 'vi' || value === 'en';
}

/**
 * The cookie (an explicit choice) wins; otherwise the browser's most wanted
 * language we speak. A browser that asks for neither gets English, one that
 * says nothing at all gets Vietnamese.
 */
export function pickLanguage(cookie: string | undefined, acceptLanguage: string | null | undefined): Lang {
  if (isLang(cookie)) return cookie;
  const header = acceptLanguage?.trim();
  if (!header) return 'vi';
  const wanted = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, order };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  for (const { base } of wanted) if (isLang(base)) return base;
  return 'en';
}
