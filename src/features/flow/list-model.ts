import type { FlowSummary, LaunchedItem, PendingItem } from '@/api/flow.ts';
import type { SheetColumn } from '@/lib/export-sheet.ts';
import { formatTime } from '@/lib/format-time.ts';

/** What the filter bar holds: dates as the date inputs give them (YYYY-MM-DD, local), '' for none. */
export type ListFilters = { keyword: string; status: string; dateFrom: string; dateTo: string };
export const emptyFilters = (): ListFilters => ({ keyword: '', status: '', dateFrom: '', dateTo: '' });

/**
 * The list request of a filter bar: keyword trimmed, the day range as [start of dateFrom, start of the day
 * after dateTo) in the user's time zone — so "to the 5th" includes all of the 5th.
 */
export function listRequest(f: ListFilters, pageNum: number, pageSize: number) {
  const dayStart = (d: string) => new Date(`${d}T00:00:00`);
  const next = (d: string) => {
    const t = dayStart(d);
    t.setDate(t.getDate() + 1);
    return t;
  };
  return {
    pageNum,
    pageSize,
    ...(f.keyword.trim() ? { keyword: f.keyword.trim() } : {}),
    ...(f.dateFrom ? { dateFrom: dayStart(f.dateFrom).toISOString() } : {}),
    ...(f.dateTo ? { dateTo: next(f.dateTo).toISOString() } : {}),
  };
}

export const STATUS_COLORS: Record<string, string> = {
  draft: 'default',
  signing: 'processing',
  completed: 'success',
  declined: 'error',
  expired: 'warning',
  cancelled: 'default',
  waiting: 'default',
  pending: 'red',
  signed: 'success',
  closed: 'default',
};

type T = (key: string, params?: Record<string, string | number>) => string;

/** Spreadsheet columns of a list (the flow's or the party's status in the user's language). */
export function sheetColumns(
  tt: T,
  locale: string,
  kind: 'pending' | 'launched',
): SheetColumn<FlowSummary | PendingItem | LaunchedItem>[] {
  const columns: SheetColumn<FlowSummary | PendingItem | LaunchedItem>[] = [
    { title: tt('colTitle'), value: (r) => r.title },
    {
      title: tt('colStatus'),
      value: (r) =>
        'partyStatus' in r && kind === 'pending' ? tt(`party.${r.partyStatus}`) : tt(`status.${r.status}`),
    },
    { title: tt('colInitiator'), value: (r) => r.initiatorCompanyName ?? r.initiatorName ?? '' },
    { title: tt('colCreated'), value: (r) => formatTime(r.createdAt, locale) },
    { title: tt('colDeadline'), value: (r) => formatTime(r.deadline, locale) },
    { title: tt('colProgress'), value: (r) => `${r.signedCount}/${r.partyCount}` },
    { title: tt('colFiles'), value: (r) => r.documentNames.join(', ') },
    // Void by agreement (issue 29): when the contract's rescission agreement completed.
    { title: tt('colVoided'), value: (r) => (r.voidedAt ? formatTime(r.voidedAt, locale) : '') },
  ];
  // The launcher's export carries what the signers filled (issue 28): "label: value; label: value".
  if (kind === 'launched')
    columns.push({
      title: tt('colFields'),
      value: (r) => ('fieldValues' in r ? r.fieldValues.map((v) => `${v.label}: ${v.value}`).join('; ') : ''),
    });
  return columns;
}

/** The card of one flow in a list (the signature lists, "copied to me"): a row on PC, stacked on a phone. */
export const flowCardStyle = (isPhone: boolean) =>
  ({
    background: '#fff',
    border: '1px solid #eee',
    borderRadius: 8,
    padding: 12,
    marginBottom: 8,
    display: 'flex',
    flexDirection: isPhone ? 'column' : 'row',
    gap: 8,
    alignItems: isPhone ? 'stretch' : 'center',
  }) as const;
