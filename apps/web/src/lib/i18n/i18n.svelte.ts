import { getContext, setContext } from 'svelte';
import { LANG_COOKIE, type Lang } from '@oanquan/protocol/languages';
import { en, type MessageKey } from './en.js';
import { interpolate, type Params } from './interpolate.js';
import { vi } from './vi.js';

const DICTIONARIES: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { vi, en };
const CONTEXT = Symbol('i18n');

/** The interface language of one page: reading `t` inside markup re-renders on a switch. */
export class I18n {
  lang = $state<Lang>('vi');

  constructor(lang: Lang) {
    this.lang = lang;
  }

  t = (key: MessageKey, params?: Params): string => interpolate(DICTIONARIES[this.lang][key], params);

  /** Has this key a text? For codes that come from the server. */
  has(key: string): key is MessageKey {
    return key in DICTIONARIES[this.lang];
  }

  /** Switches the language and remembers the choice for a year in the `lang` cookie the server reads. */
  set(lang: Lang): void {
    this.lang = lang;
    document.cookie = `${LANG_COOKIE}=${lang}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
    document.documentElement.lang = lang;
  }

  /** Every date the site shows, in one style per language ("2 Dec 2026, 01:09"); `withTime: false` for the day alone. */
  date(iso: string, withTime = true): string {
    return new Date(iso).toLocaleString(this.lang === 'vi' ? 'vi-VN' : 'en-GB', { dateStyle: 'medium', ...(withTime ? { timeStyle: 'short' } : {}) });
  }
}

export function provideI18n(i18n: I18n): void {
  setContext(CONTEXT, i18n);
}

export function useI18n(): I18n {
  const i18n = getContext<I18n | undefined>(CONTEXT);
  if (!i18n) throw new Error('useI18n outside the root layout');
  return i18n;
}
