import { useI18nStore } from '@/i18n/i18n-store.ts';

/** A date-time (year to minute) in the given language; a value that is not a date is shown as it came. */
export function formatTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(locale, {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
}

/** Hook: a date and time in the user's language (empty for none). */
export function useFormatTime() {
  const locale = useI18nStore((s) => s.locale);
  return (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(locale) : '');
}
