import * as XLSX from 'xlsx';
import { describe, expect, it, vi } from 'vitest';

// Keep the real workbook functions; only the browser download is observed.
vi.mock('xlsx', async (importOriginal) => ({
  ...(await importOriginal<typeof import('xlsx')>()),
  writeFile: vi.fn(),
}));
import { allPages, buildWorkbook, EXPORT_MAX_ROWS, exportSheet, sheetRows } from '@/lib/export-sheet.ts';

type Row = { name: string; count: number | null };
const columns = [
  { title: 'Name', value: (r: Row) => r.name },
  { title: 'Count', value: (r: Row) => r.count },
];
const rows: Row[] = [
  { name: '合同A', count: 3 },
  { name: 'B', count: null },
];

describe('spreadsheet export', () => {
  it('puts the header first and empties missing cells', () => {
    expect(sheetRows(columns, rows)).toEqual([
      ['Name', 'Count'],
      ['合同A', 3],
      ['B', ''],
    ]);
  });

  it('builds a workbook that reads back with the same cells', async () => {
    const book = await buildWorkbook(columns, rows, 'Signings');
    const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' });
    const again = XLSX.read(bytes, { type: 'array' });
    expect(again.SheetNames).toEqual(['Signings']);
    expect(XLSX.utils.sheet_to_json(again.Sheets.Signings, { header: 1 })).toEqual([
      ['Name', 'Count'],
      ['合同A', 3],
      ['B', ''],
    ]);
  });

  it('downloads as <name>.xlsx', async () => {
    await exportSheet('report', columns, rows);
    expect(XLSX.writeFile).toHaveBeenCalledWith(
      expect.objectContaining({ SheetNames: ['Sheet1'] }),
      'report.xlsx',
    );
  });

  it('gathers every page of a list for an export, and stops at the row limit', async () => {
    const total = 250;
    const asked: number[] = [];
    const fetchPage = async (pageNum: number, pageSize: number) => {
      asked.push(pageNum);
      const start = (pageNum - 1) * pageSize;
      return {
        list: Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => start + i),
        total,
      };
    };
    const rows = await allPages(fetchPage);
    expect(rows).toHaveLength(250);
    expect(rows[249]).toBe(249);
    expect(asked).toEqual([1, 2, 3]);
    const huge = await allPages(async (pageNum, pageSize) => ({
      list: Array.from({ length: pageSize }, (_, i) => pageNum * pageSize + i),
      total: 1_000_000,
    }));
    expect(huge).toHaveLength(EXPORT_MAX_ROWS);
  });
});
