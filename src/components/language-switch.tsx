import { type Locale, useI18nStore } from '@/i18n/i18n-store.ts';
import { PlainButton } from './plain-button.tsx';

const OTHER: Record<Locale, { locale: Locale; label: string; lang: string }> = {
  'zh-CN': { locale: 'en-US', label: 'English', lang: 'en' },
  'en-US': { locale: 'zh-CN', label: '中文', lang: 'zh' },
};

/** One button naming the other language in that language ("English" / "中文"); the choice is remembered. */
export function LanguageSwitch({ type = 'link' }: { type?: 'link' | 'text' | 'default' }) {
  const locale = useI18nStore((s) => s.locale);
  const setLocale = useI18nStore((s) => s.setLocale);
  const other = OTHER[locale];
  return (
    // Plain, not antd: it sits on the login page, whose first load has no antd (see plain-input.tsx).
    <PlainButton kind={type} lang={other.lang} onClick={() => setLocale(other.locale)}>
      {other.label}
    </PlainButton>
  );
}
