// Every date and time the client shows goes through here, so that one English session never shows 11/29/2026
// on one screen, 29/11/2026 on the next and 2026/11/29 on a third (a test scans src/ for any other way).
// The month is named ("Nov 29, 2026" / "2026年11月29日"), so that no reader takes the day for the month, and
// the clock has 24 hours in both languages. Times are the browser's local time.
import { useI18nStore } from '@/i18n/i18n-store.ts';

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { ...DATE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

const formats = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${options === TIME ? 'time' : 'date'}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

function format(iso: string | null | undefined, locale: string, options: Intl.DateTimeFormatOptions): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : formatter(locale, options).format(d);
}

/** A date and time (to the minute) in the given language; '' for none, a value that is not a date as it came. */
export const formatTime = (iso: string | null | undefined, locale: string): string =>
  format(iso, locale, TIME);

/** A date (no time) in the given language; '' for none, a value that is not a date as it came. */
export const formatDate = (iso: string | null | undefined, locale: string): string =>
  format(iso, locale, DATE);

/** Hook: formatTime in the user's language. */
export function useFormatTime() {
  const locale = useI18nStore((s) => s.locale);
  return (iso: string | null | undefined) => formatTime(iso, locale);
}

/** Hook: formatDate in the user's language. */
export function useFormatDate() {
  const locale = useI18nStore((s) => s.locale);
  return (iso: string | null | undefined) => formatDate(iso, locale);
}

/** The value of an `<input type="datetime-local">` for a time, in the browser's zone ('' for none). */
export function localInputValue(time: string | Date): string {
  if (time === '') return '';
  const d = new Date(time);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The value of an `<input type="date">` for a time: its local calendar day ('' for none). */
export const localDayValue = (time: string | Date): string => localInputValue(time).slice(0, 10);
