import type { UsageFilters, UsageRow } from '@/api/package.ts';
import type { SheetColumn } from '@/lib/export-sheet.ts';
import { formatTime } from '@/lib/format-time.ts';

/** The usage filter bar: dates as the date inputs give them (YYYY-MM-DD, local), '' for none. */
export type UsageFilterForm = {
  keyword: string;
  state: string;
  packageId: string;
  dateFrom: string;
  dateTo: string;
};
export const emptyUsageFilters = (): UsageFilterForm => ({
  keyword: '',
  state: '',
  packageId: '',
  dateFrom: '',
  dateTo: '',
});

/**
 * The request filters of the bar: keyword trimmed, empty fields left out, the day range as [start of
 * dateFrom, end of dateTo] in the user's time zone, so "to the 5th" includes all of the 5th.
 */
export function usageRequest(f: UsageFilterForm): UsageFilters {
  const dayStart = (d: string) => new Date(`${d}T00:00:00`);
  const dayEnd = (d: string) => new Date(`${d}T23:59:59.999`);
  return {
    ...(f.keyword.trim() ? { keyword: f.keyword.trim() } : {}),
    ...(f.state ? { state: f.state as UsageFilters['state'] } : {}),
    ...(f.packageId ? { packageId: f.packageId } : {}),
    ...(f.dateFrom ? { dateFrom: dayStart(f.dateFrom).toISOString() } : {}),
    ...(f.dateTo ? { dateTo: dayEnd(f.dateTo).toISOString() } : {}),
  };
}

/** The columns of the usage table and of its spreadsheet export: the same texts, the same order. */
export function usageColumns(
  tt: (
    key:
      | 'title'
      | 'initiator'
      | 'launchedAt'
      | 'state'
      | 'settledAt'
      | 'package'
      | 'starter'
      | `state_${UsageRow['state']}`,
  ) => string,
  locale: string,
): SheetColumn<UsageRow>[] {
  return [
    { title: tt('title'), value: (r) => r.title },
    { title: tt('initiator'), value: (r) => r.initiatorName ?? '' },
    { title: tt('launchedAt'), value: (r) => formatTime(r.launchedAt, locale) },
    { title: tt('state'), value: (r) => tt(`state_${r.state}`) },
    { title: tt('settledAt'), value: (r) => formatTime(r.settledAt, locale) },
    {
      title: tt('package'),
      value: (r) =>
        r.packageName === null
          ? tt('starter')
          : locale === 'zh-CN'
            ? r.packageName
            : (r.packageNameEn ?? r.packageName),
    },
  ];
}
