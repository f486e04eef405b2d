import { useI18nStore } from '@/i18n/i18n-store.ts';

/** Hook: a date and time in the user's language (empty for none). */
export function useFormatTime() {
  const locale = useI18nStore((s) => s.locale);
  return (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(locale) : '');
}
