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
