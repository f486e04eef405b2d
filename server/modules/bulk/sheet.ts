// The spreadsheet of a template: its columns (per role's party, per field, title, deadline), the xlsx to fill,
// and reading an uploaded .xlsx (SheetJS 0.20.3, never formulas or HTML) or .csv (a reader of our own) into
// rows of text with limits. Rows are arrays, never objects keyed by the sheet's headers, so no header
// (`__proto__`, `constructor`) ever becomes a property name.
import * as XLSX from 'xlsx';
import { BULK_LIMITS } from '#contract/calls/bulk.ts';
import type { Template, TemplateField } from '#contract/calls/template.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from '../../http/app-error.ts';
import type { Lang, Text } from '../../lib/text.ts';
import { B } from './texts.ts';

export type ColumnKind =
  | 'personName'
  | 'personPhone'
  | 'companyName'
  | 'handlerPhone'
  | 'handlerName'
  | 'field'
  | 'title'
  | 'deadline';

export type Column = {
  kind: ColumnKind;
  header: Text;
  hint: Text;
  /** Whether the sheet must have this column. */
  needed: boolean;
  roleKey?: string;
  field?: TemplateField;
};

/** The columns of a template's sheet, in order: each role's party, then the fields, then title and deadline. */
export function columnsOf(t: Template): Column[] {
  const cols: Column[] = [];
  for (const role of [...t.roles].sort((a, b) => a.stepIndex - b.stepIndex)) {
    const roleKey = role.key;
    if (role.kind === 'person')
      cols.push(
        { kind: 'personName', header: B.personName(role.name), hint: B.hintName, needed: true, roleKey },
        { kind: 'personPhone', header: B.personPhone(role.name), hint: B.hintPhone, needed: true, roleKey },
      );
    else
      cols.push(
        { kind: 'companyName', header: B.companyName(role.name), hint: B.hintCompany, needed: true, roleKey },
        { kind: 'handlerPhone', header: B.handlerPhone(role.name), hint: B.hintPhone, needed: true, roleKey },
        {
          kind: 'handlerName',
          header: B.handlerName(role.name),
          hint: B.hintOptionalName,
          needed: false,
          roleKey,
        },
      );
  }
  // A field the signer fills in the signing room (issue 28) has no column: nobody fills it at launch.
  for (const field of t.fields.filter((f) => f.fillAt !== 'room'))
    cols.push({
      kind: 'field',
      header: { en: field.label, zh: field.label },
      hint: B.hintField(field.type, field.isRequired && field.defaultValue === null),
      needed: field.isRequired && field.defaultValue === null,
      field,
    });
  cols.push(
    { kind: 'title', header: B.title, hint: B.hintTitle, needed: false },
    { kind: 'deadline', header: B.deadline, hint: B.hintDeadline, needed: false },
  );
  return cols;
}

/** A header or hint as compared: case, spaces, asterisks and full-width colons do not matter. */
export const normalHeader = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s*：:]/g, '');

/** The xlsx to fill for a template: headers in `lang`, the second row says each column's type. */
export function sheetFor(t: Template, lang: Lang): Buffer {
  const cols = columnsOf(t);
  const ws = XLSX.utils.aoa_to_sheet([cols.map((c) => c.header[lang]), cols.map((c) => c.hint[lang])]);
  ws['!cols'] = cols.map((c) => ({ wch: Math.max(14, c.header[lang].length * 2) }));
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, B.sheetName[lang]);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/** An xlsx of one sheet from rows of text (the results download). */
export function xlsxOf(name: string, rows: (string | number)[][]): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/** A cell as read: text, a number, a boolean or a date (xlsx date cells). */
export type Cell = string | number | boolean | Date | null;

const refuse = (text: Text) => new AppError(Code.Refused, text);
const isZip = (b: Uint8Array) =>
  b.length > 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/**
 * The rows of an uploaded sheet (row 1 the headers), at most BULK_LIMITS.rows data rows (+ the header and a
 * hint row) and BULK_LIMITS.columns columns; a file that is neither an xlsx nor text is refused.
 */
export function readSheet(bytes: Uint8Array, fileName: string): Cell[][] {
  if (bytes.length > BULK_LIMITS.fileBytes) throw refuse(B.fileTooLarge(BULK_LIMITS.fileBytes / 1024 / 1024));
  const started = performance.now();
  const rows = isZip(bytes) ? readXlsx(bytes) : readCsvBytes(bytes, fileName);
  if (performance.now() - started > BULK_LIMITS.parseMs) throw refuse(B.tooSlow(BULK_LIMITS.parseMs / 1000));
  // Trailing empty rows do not count.
  while (rows.length && rows[rows.length - 1].every(isBlank)) rows.pop();
  if (rows.length > BULK_LIMITS.rows + 2) throw refuse(B.tooManyRows(BULK_LIMITS.rows));
  return rows;
}

export const isBlank = (c: Cell): boolean => c === null || (typeof c === 'string' && c.trim() === '');

function readXlsx(bytes: Uint8Array): Cell[][] {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(bytes, {
      type: 'buffer',
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellStyles: false,
      cellDates: true,
      bookVBA: false,
      bookFiles: false,
      // a row more than allowed, so "too many rows" is told rather than rows silently dropped
      sheetRows: BULK_LIMITS.rows + 3,
      WTF: false,
    });
  } catch {
    // Expected: SheetJS throws on damaged or crafted files; told as unreadable, never a 500.
    throw refuse(B.unreadable);
  }
  const name = wb.SheetNames[0];
  const ws = name === undefined ? undefined : wb.Sheets[name];
  if (!ws) throw refuse(B.notASheet);
  const data = (ws['!data'] ?? []) as (XLSX.CellObject | undefined)[][];
  const out: Cell[][] = [];
  for (const row of data) {
    const cells: Cell[] = [];
    const n = row ? row.length : 0;
    if (n > BULK_LIMITS.columns) {
      // only trailing empty cells may lie beyond the limit
      for (let c = BULK_LIMITS.columns; c < n; c++)
        if (!isBlank(cellValue(row[c]))) throw refuse(B.tooManyColumns(BULK_LIMITS.columns));
    }
    for (let c = 0; c < Math.min(n, BULK_LIMITS.columns); c++) cells.push(cellValue(row[c]));
    out.push(cells);
  }
  return out;
}

function cellValue(cell: XLSX.CellObject | undefined): Cell {
  if (!cell || cell.v === undefined || cell.v === null) return null;
  const v = cell.v;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  return null;
}

/** Whether a text holds a control character other than tab, LF, VT, FF, CR: a binary file's mark. */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 && (c < 0x09 || c > 0x0d)) return true;
  }
  return false;
}

/** A .csv's text: UTF-8 (with or without BOM), else GB18030 (what Excel saves in Chinese); binary refused. */
function readCsvBytes(bytes: Uint8Array, fileName: string): Cell[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Expected: not UTF-8; Excel in Chinese saves CSV in GB18030.
    text = new TextDecoder('gb18030').decode(bytes);
  }
  const looksText = !hasControl(text.slice(0, 4096));
  if (!looksText || (!/\.csv$/i.test(fileName) && !text.includes(','))) throw refuse(B.notASheet);
  return parseCsv(text.replace(/^\uFEFF/, ''));
}

/**
 * RFC 4180 CSV: fields separated by commas, quoted with "..." ("" inside is a quote), rows by CRLF or LF.
 * Stops with a refusal past the row or column limit, so a huge file is never held as rows.
 */
export function parseCsv(text: string): Cell[][] {
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endField = () => {
    if (row.length >= BULK_LIMITS.columns) {
      if (field.trim() !== '') throw refuse(B.tooManyColumns(BULK_LIMITS.columns));
    } else row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
    if (rows.length > BULK_LIMITS.rows + 3) throw refuse(B.tooManyRows(BULK_LIMITS.rows));
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n') endRow();
    else if (ch === '\r') {
      if (text[i + 1] === '\n') i++;
      endRow();
    } else field += ch;
    i++;
  }
  if (field !== '' || row.length) endRow();
  return rows;
}
