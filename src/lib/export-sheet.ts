import type { WorkBook } from 'xlsx';

/** One column of an exported sheet: its header text and how to read the cell from a row. */
export type SheetColumn<Row> = {
  title: string;
  value: (row: Row) => string | number | boolean | null | undefined;
};

/** Rows as an array of arrays, header first; null and undefined become empty cells. */
export function sheetRows<Row>(columns: SheetColumn<Row>[], rows: Row[]): (string | number | boolean)[][] {
  return [columns.map((c) => c.title), ...rows.map((row) => columns.map((c) => c.value(row) ?? ''))];
}

/** Build the workbook (xlsx is loaded on demand so list screens do not pay for it up front). */
export async function buildWorkbook<Row>(
  columns: SheetColumn<Row>[],
  rows: Row[],
  sheetName = 'Sheet1',
): Promise<WorkBook> {
  const XLSX = await import('xlsx');
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet(sheetRows(columns, rows)),
    sheetName.slice(0, 31),
  );
  return book;
}

/** Download rows as `<fileName>.xlsx`: the one export helper every list screen uses (SPEC §1). */
export async function exportSheet<Row>(
  fileName: string,
  columns: SheetColumn<Row>[],
  rows: Row[],
  sheetName?: string,
) {
  const XLSX = await import('xlsx');
  const book = await buildWorkbook(columns, rows, sheetName);
  XLSX.writeFile(book, fileName.endsWith('.xlsx') ? fileName : `${fileName}.xlsx`);
}

/** The most rows one export gathers (a sheet for people, not a backup). */
export const EXPORT_MAX_ROWS = 2000;

/** Every row of a paged list, 100 a page, up to EXPORT_MAX_ROWS: what an export of the current filter holds. */
export async function allPages<Row>(
  fetchPage: (pageNum: number, pageSize: number) => Promise<{ list: Row[]; total: number }>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let n = 1; rows.length < EXPORT_MAX_ROWS; n++) {
    const res = await fetchPage(n, 100);
    rows.push(...res.list);
    if (res.list.length < 100 || rows.length >= res.total) break;
  }
  return rows.slice(0, EXPORT_MAX_ROWS);
}
