import { create } from 'zustand';
import { localStore } from '@/lib/safe-storage.ts';
import { enUS, type MessageKey, type Messages } from './en-US.ts';
import { zhCN } from './zh-CN.ts';
import { fillText, type TextParams } from './fill-text.ts';

const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];
/** Local-storage key of the chosen language; kept when the login is cleared (see src/session). */
export const LOCALE_STORAGE_KEY = 'locale';

const dictionaries: Record<Locale, Messages> = { 'zh-CN': zhCN, 'en-US': enUS };

const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** The remembered choice first, then the browser's language: any Chinese variant → zh-CN, else en-US. */
export function detectLocale(): Locale {
  const saved = localStore.getItem(LOCALE_STORAGE_KEY);
  if (isLocale(saved)) return saved;
  const languages =
    typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  const first = languages.find(Boolean) ?? '';
  return first.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
}

type I18nState = { locale: Locale; setLocale: (locale: Locale) => void };

export const useI18nStore = create<I18nState>((set) => ({
  locale: detectLocale(),
  setLocale: (locale) => {
    localStore.setItem(LOCALE_STORAGE_KEY, locale);
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
    set({ locale });
  },
}));

type TranslateParams = TextParams;

/** Translate in a given locale; placeholders are filled by fillText (`{name}`, `{n, plural, …}`). */
export function translate(locale: Locale, key: MessageKey, params?: TranslateParams): string {
  return fillText(locale, dictionaries[locale][key], params);
}

/** Translate in the current locale, for code outside React (the HTTP client). */
export const t = (key: MessageKey, params?: TranslateParams) =>
  translate(useI18nStore.getState().locale, key, params);

/** Hook for components: re-renders when the language changes. */
export function useT() {
  const locale = useI18nStore((s) => s.locale);
  return (key: MessageKey, params?: TranslateParams) => translate(locale, key, params);
}

/** Pick the zh or en half of a bilingual pair (planned-route table, enum names). */
export const pick = (locale: Locale, pair: { zh: string; en: string }) =>
  locale === 'zh-CN' ? pair.zh : pair.en;

/**
 * A feature's own dictionary, so features add texts without touching the shared ones:
 *   const texts = defineTexts({ 'en-US': { title: 'Seals' }, 'zh-CN': { title: '印章' } });
 *   const tt = useTexts(texts); tt('title')
 * The zh-CN half must define exactly the keys of the en-US half (a type error otherwise).
 */
export function defineTexts<K extends string>(texts: {
  'en-US': Record<K, string>;
  'zh-CN': Record<K, string>;
}) {
  return texts;
}

type FeatureTexts<K extends string> = { 'en-US': Record<K, string>; 'zh-CN': Record<K, string> };

/** Hook: translate a feature's own keys in the current locale. */
export function useTexts<K extends string>(texts: FeatureTexts<K>) {
  const locale = useI18nStore((s) => s.locale);
  return (key: K, params?: TranslateParams) => fillText(locale, texts[locale][key], params);
}

/** Outside React: translate a feature's own key in the current locale. */
export const textOf = <K extends string>(texts: FeatureTexts<K>, key: K, params?: TranslateParams) => {
  const { locale } = useI18nStore.getState();
  return fillText(locale, texts[locale][key], params);
};
