// Checking the rows of an uploaded sheet against its template, before anything is sent: each problem named by
// spreadsheet row and column, in both languages (the answer picks the reader's). A good row becomes the
// input of the template's own launch path (values, parties, title, deadline).
import { BULK_LIMITS } from '#contract/calls/bulk.ts';
import { type RoleAssignment, type Template, isCalendarDate } from '#contract/calls/template.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../lib/text.ts';
import { valueProblem } from '../template/index.ts';
import { type Cell, type Column, columnsOf, isBlank, normalHeader } from './sheet.ts';
import { B } from './texts.ts';

/** What one good row launches. */
export type RowData = {
  title: string;
  /** ISO date-time, or null for the launch's default deadline. */
  deadline: string | null;
  values: Record<string, string | boolean>;
  assignments: RoleAssignment[];
};

export type RowProblem = { column: string | null; text: Text };
export type CheckedRow = { rowNo: number; data: RowData; problems: RowProblem[] };

const PHONE = /^1\d{10}$/;

/** Text of a cell as the launcher meant it: phones typed as numbers lose no digit, dates become YYYY-MM-DD. */
function textOf(c: Cell): string {
  if (c === null) return '';
  if (c instanceof Date) return dayOf(c);
  if (typeof c === 'number') return Number.isInteger(c) ? String(c) : String(Number(c.toFixed(6)));
  if (typeof c === 'boolean') return c ? 'true' : 'false';
  return c.trim();
}

/** A date cell's day (SheetJS gives the local midnight of the day typed, in UTC here). */
const dayOf = (d: Date): string => {
  // rounded to the nearest day: Excel's serial dates carry a few milliseconds of error
  const t = new Date(Math.round(d.getTime() / 86_400_000) * 86_400_000);
  return t.toISOString().slice(0, 10);
};

/** 2025/3/1, 2025.3.1 or 2025-3-1 as 2025-03-01; anything else as typed. */
function normalDate(s: string): string {
  const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(s);
  return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : s;
}

const YES = new Set(['true', 'yes', 'y', '1', '是', '√', '✓', '✔', 'x']);
const NO = new Set(['false', 'no', 'n', '0', '否', '']);

/** Where each column is in the sheet: its index and the header as the sheet wrote it. */
type Placed = { col: Column; index: number; header: string };

/** Places the template's columns by the sheet's header row (either language); a needed one missing is refused. */
function placeColumns(t: Template, headerRow: Cell[]): Placed[] {
  const byHeader = new Map<string, number>();
  headerRow.forEach((c, i) => {
    const h = normalHeader(textOf(c));
    if (h && !byHeader.has(h)) byHeader.set(h, i);
  });
  const placed: Placed[] = [];
  for (const col of columnsOf(t)) {
    const index = byHeader.get(normalHeader(col.header.zh)) ?? byHeader.get(normalHeader(col.header.en));
    if (index === undefined) {
      if (col.needed) throw new AppError(Code.Refused, B.columnMissing(col.header.zh));
      continue;
    }
    placed.push({ col, index, header: textOf(headerRow[index]) });
  }
  return placed;
}

/** Whether a row is the sheet's type hints (the second row of the sheet we made). */
function isHintRow(placed: Placed[], row: Cell[]): boolean {
  let matched = 0;
  for (const p of placed) {
    const v = normalHeader(textOf(row[p.index] ?? null));
    if (!v) continue;
    if (v !== normalHeader(p.col.hint.en) && v !== normalHeader(p.col.hint.zh)) return false;
    matched++;
  }
  return matched > 0;
}

export type CheckContext = {
  template: Template;
  now: Date;
  /** The id of the verified company of that exact name, or undefined (cached by the caller). */
  companyId(name: string): Promise<string | undefined>;
};

/**
 * Checks every data row of a sheet (rows[0] the headers); blank rows are left out. A row is numbered as the
 * spreadsheet shows it (the headers are row 1); rows given as JSON (`asJson`) by their place, from 1.
 */
export async function checkRows(ctx: CheckContext, rows: Cell[][], asJson = false): Promise<CheckedRow[]> {
  if (rows.length === 0) throw new AppError(Code.Refused, B.noRows);
  const placed = placeColumns(ctx.template, rows[0]);
  let first = 1;
  if (!asJson && rows[1] && isHintRow(placed, rows[1])) first = 2;
  const out: CheckedRow[] = [];
  const seen = new Map<string, number>();
  for (let r = first; r < rows.length; r++) {
    const row = rows[r];
    if (row.every(isBlank)) continue;
    const rowNo = asJson ? r : r + 1;
    const checked = await checkRow(ctx, placed, row, rowNo);
    const key = JSON.stringify(checked.data);
    const earlier = seen.get(key);
    if (earlier !== undefined) checked.problems.push({ column: null, text: B.duplicate(earlier) });
    else seen.set(key, rowNo);
    out.push(checked);
  }
  if (out.length === 0) throw new AppError(Code.Refused, B.noRows);
  if (out.length > BULK_LIMITS.rows) throw new AppError(Code.Refused, B.tooManyRows(BULK_LIMITS.rows));
  return out;
}

async function checkRow(
  ctx: CheckContext,
  placed: Placed[],
  row: Cell[],
  rowNo: number,
): Promise<CheckedRow> {
  const problems: RowProblem[] = [];
  const t = ctx.template;
  const cell = (p: Placed) => row[p.index] ?? null;
  const values = new Map<string, string | boolean>();
  const parties = new Map<
    string,
    { name?: string; phone?: string; company?: string; handlerName?: string }
  >();
  let title = '';
  let deadline: string | null = null;
  for (const p of placed) {
    const raw = cell(p);
    const text = textOf(raw);
    const problem = (x: Text) => problems.push({ column: p.header, text: x });
    const party = () => {
      const key = p.col.roleKey!;
      const v = parties.get(key) ?? {};
      parties.set(key, v);
      return v;
    };
    switch (p.col.kind) {
      case 'personName':
      case 'handlerName':
        if (!text && p.col.kind === 'personName') problem(B.required);
        else if (text.length > 32) problem(B.badName);
        if (p.col.kind === 'personName') party().name = text;
        else party().handlerName = text;
        break;
      case 'personPhone':
      case 'handlerPhone': {
        const phone = text.replace(/[\s-]/g, '').replace(/^\+?86/, '');
        if (!phone) problem(B.required);
        else if (!PHONE.test(phone)) problem(B.badPhone);
        party().phone = phone;
        break;
      }
      case 'companyName':
        if (!text) problem(B.required);
        else if (!(await ctx.companyId(text))) problem(B.unknownCompany(text));
        party().company = text;
        break;
      case 'field': {
        const f = p.col.field!;
        let value: string | boolean;
        if (f.type === 'checkbox') {
          const v = text.toLowerCase();
          value = raw === true || YES.has(v) ? true : raw === false || NO.has(v) ? false : text;
        } else value = f.type === 'date' ? normalDate(text) : text;
        if (value === '' && f.defaultValue !== null) break; // the template's default applies
        const bad = valueProblem(f, value);
        if (bad) problem(bad);
        values.set(f.key, value);
        break;
      }
      case 'title':
        if (text.length > 100) problem(B.titleTooLong);
        title = text;
        break;
      case 'deadline':
        if (!text) break;
        if (!isCalendarDate(normalDate(text))) problem(B.badDate);
        else {
          // the end of that day in China (UTC+8)
          deadline = new Date(`${normalDate(text)}T23:59:59+08:00`).toISOString();
          if (new Date(deadline).getTime() <= ctx.now.getTime()) problem(B.deadlinePast);
        }
        break;
    }
  }
  const assignments: RoleAssignment[] = [];
  const phones = new Set<string>();
  for (const role of t.roles) {
    const v = parties.get(role.key) ?? {};
    const phone = v.phone ?? '';
    // the launch refuses one signer in two roles (same kind, phone and company)
    const who = `${role.kind}|${phone}|${v.company ?? ''}`;
    if (phone && phones.has(who)) problems.push({ column: null, text: B.samePartyTwice });
    phones.add(who);
    if (role.kind === 'person')
      assignments.push({ roleKey: role.key, kind: 'person', name: v.name ?? '', phone, intent: 'sms' });
    else
      assignments.push({
        roleKey: role.key,
        kind: 'company',
        companyName: v.company ?? '',
        operatorPhone: phone,
        ...(v.handlerName ? { operatorName: v.handlerName } : {}),
        intent: 'sms',
      });
  }
  const named = assignments.map((a) => (a.kind === 'person' ? a.name : a.companyName)).find(Boolean);
  if (!title) title = `${t.name}${named ? ` - ${named}` : ''}`.slice(0, 100);
  return { rowNo, data: { title, deadline, values: Object.fromEntries(values), assignments }, problems };
}
