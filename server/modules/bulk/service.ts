// Bulk sending (issue 28): a sheet checked against its template and kept as a batch; sending runs in the
// background (send.ts). Every call is scoped to the caller's account (accountOf: a company caller must be its
// administrator or operator, as for templates); another account's batch is 1101 NotFound.
import { randomUUID } from 'node:crypto';
import type { BulkCheck, BulkRow, BulkSummary } from '#contract/calls/bulk.ts';
import type { Template } from '#contract/calls/template.ts';
import { Code } from '#contract/codes.ts';
import { dateOf, isoOrNull, jsonOf } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Account } from '../../lib/account.ts';
import type { Actor } from '../../lib/actor.ts';
import { type Lang, type Text, render } from '../../lib/text.ts';
import { verifiedCompanyIdByName } from '../company/index.ts';
import { accountOf } from '../document/index.ts';
import { quotaOf } from '../package/index.ts';
import { getTemplate } from '../template/index.ts';
import { type CheckedRow, type RowData, type RowProblem, checkRows } from './check.ts';
import * as q from './queries.ts';
import { sheetFor, xlsxOf } from './sheet.ts';
import { readSheetInThread } from './sheet-reader.ts';
import { B } from './texts.ts';

export const SEND_JOB = 'bulk.send';

const notFound = () => new AppError(Code.NotFound, B.bulkNotFound);

/** The template as its owner sees it, refused when it cannot be launched (a role without a position). */
async function launchableTemplate(deps: AppDeps, actor: Actor, templateId: string): Promise<Template> {
  const t = await getTemplate(deps, actor, templateId);
  if (t.roles.length === 0 || t.roles.some((r) => !t.positions.some((p) => p.roleKey === r.key)))
    throw new AppError(Code.Refused, B.notLaunchable);
  return t;
}

/** The xlsx to fill for a template of the caller's account. */
export async function sheetOfTemplate(deps: AppDeps, actor: Actor, templateId: string, lang: Lang) {
  const t = await launchableTemplate(deps, actor, templateId);
  return { bytes: sheetFor(t, lang), name: `${t.name}.xlsx` };
}

/** Checks rows against a template and keeps the batch (nothing is sent). */
async function keepChecked(
  deps: AppDeps,
  actor: Actor,
  t: Template,
  fileName: string,
  check: (ctx: Parameters<typeof checkRows>[0]) => Promise<CheckedRow[]>,
  lang: Lang,
): Promise<BulkCheck> {
  const account = await accountOf(deps, actor);
  const companies = new Map<string, Promise<string | undefined>>();
  const checked = await check({
    template: t,
    now: deps.clock.now(),
    companyId(name) {
      const id = companies.get(name) ?? verifiedCompanyIdByName(deps, name);
      companies.set(name, id);
      return id;
    },
  });
  const bulkId = randomUUID();
  const good = checked.filter((r) => r.problems.length === 0).length;
  await deps.db.transaction(async (tx) => {
    await q.insertBulk(
      tx,
      {
        id: bulkId,
        ownerType: account.ownerType,
        ownerId: account.ownerId,
        templateId: t.templateId,
        createdBy: actor.userId,
        viaKind: actor.via.kind,
        viaId:
          actor.via.kind === 'apiKey'
            ? actor.via.keyId
            : actor.via.kind === 'session'
              ? actor.via.sessionId
              : '',
        fileName: fileName.slice(0, 200),
        total: checked.length,
        good,
        now: deps.clock.now(),
      },
      checked.map((r) => ({
        rowNo: r.rowNo,
        data: r.data,
        problems: r.problems.map((p) => ({ column: p.column, en: p.text.en, zh: p.text.zh })),
      })),
    );
  });
  return {
    bulkId,
    rows: checked.length,
    good,
    problems: checked.flatMap((r) =>
      r.problems.map((p) => ({ row: r.rowNo, column: p.column, message: render(p.text, lang) })),
    ),
    quotaRemaining: (await quotaOf(deps, account)).remaining,
  };
}

/** checkBulkSend: an uploaded .xlsx or .csv read on the server with limits, every row checked. */
export async function checkUpload(
  deps: AppDeps,
  actor: Actor,
  input: { templateId: string; bytes: Uint8Array; fileName: string },
  lang: Lang,
): Promise<BulkCheck> {
  const t = await launchableTemplate(deps, actor, input.templateId);
  const rows = await readSheetInThread(input.bytes, input.fileName);
  return keepChecked(deps, actor, t, input.fileName, (ctx) => checkRows(ctx, rows), lang);
}

/**
 * The integrator API: rows as JSON objects keyed by the sheet's headers (either language). They are turned into
 * a header row and cell rows (arrays, never objects built from the caller's keys), then checked as a sheet.
 */
export async function checkJsonRows(
  deps: AppDeps,
  actor: Actor,
  input: { templateId: string; rows: Record<string, string | number | boolean | null>[] },
  lang: Lang,
): Promise<BulkCheck> {
  const t = await launchableTemplate(deps, actor, input.templateId);
  const headers: string[] = [];
  const index = new Map<string, number>();
  for (const r of input.rows)
    for (const k of Object.keys(r))
      if (!index.has(k)) {
        index.set(k, headers.length);
        headers.push(k);
      }
  const cells = input.rows.map((r) => {
    const line: (string | number | boolean | null)[] = headers.map(() => null);
    for (const [k, v] of Object.entries(r)) line[index.get(k)!] = v;
    return line;
  });
  return keepChecked(deps, actor, t, 'api', (ctx) => checkRows(ctx, [headers, ...cells], true), lang);
}

async function bulkOf(
  deps: AppDeps,
  actor: Actor,
  bulkId: string,
): Promise<{ account: Account; bulk: q.BulkRecord }> {
  const account = await accountOf(deps, actor);
  const bulk = await q.findBulk(deps.db, account, bulkId);
  if (!bulk) throw notFound();
  return { account, bulk };
}

async function summaryOf(deps: AppDeps, actor: Actor, b: q.BulkRecord): Promise<BulkSummary> {
  // the template may have been deleted since: its name is then unknown
  const name = await getTemplate(deps, actor, b.templateId).then(
    (t) => t.name,
    (err: unknown) => {
      if (err instanceof AppError && err.code === Code.NotFound) return null;
      throw err;
    },
  );
  return {
    bulkId: b.id,
    templateId: b.templateId,
    templateName: name,
    fileName: b.fileName,
    status: b.status,
    total: b.total,
    good: b.good,
    sent: b.sent,
    failed: b.failed,
    createdAt: dateOf(b.createdAt).toISOString(),
    startedAt: isoOrNull(b.startedAt),
    finishedAt: isoOrNull(b.finishedAt),
  };
}

/** startBulkSend: the batch's good rows are sent by the job; with problems, only when `onlyGood`. */
export async function start(
  deps: AppDeps,
  actor: Actor,
  bulkId: string,
  onlyGood: boolean,
): Promise<BulkSummary> {
  const { account, bulk } = await bulkOf(deps, actor, bulkId);
  if (bulk.status !== 'checked') throw new AppError(Code.Refused, B.alreadyStarted);
  const bad = bulk.total - bulk.good;
  if (bad > 0 && !onlyGood) throw new AppError(Code.Refused, B.hasProblems(bad));
  if (bulk.good === 0) throw new AppError(Code.Refused, B.nothingToSend);
  if (!(await q.markStarted(deps.db, account, bulkId, deps.clock.now())))
    throw new AppError(Code.Refused, B.alreadyStarted);
  await deps.jobs.send(SEND_JOB, { bulkId }, { singletonKey: bulkId });
  return summaryOf(deps, actor, (await q.findBulk(deps.db, account, bulkId))!);
}

function presentRow(r: q.BulkRowRecord, lang: Lang): BulkRow {
  const data = jsonOf<RowData>(r.data);
  const problems = r.problems ? jsonOf<{ column: string | null; en: string; zh: string }[]>(r.problems) : [];
  const error = r.error ? jsonOf<Text>(r.error) : null;
  const message = error
    ? render(error, lang)
    : problems.length
      ? problems.map((p) => (p.column ? `${p.column}: ${p[lang]}` : p[lang])).join('; ')
      : null;
  return {
    row: r.rowNo,
    status: r.status,
    title: data.title,
    parties: data.assignments.map((a) =>
      a.kind === 'person' ? `${a.name} ${a.phone}` : `${a.companyName} ${a.operatorPhone}`,
    ),
    flowId: r.flowId,
    message,
  };
}

export async function get(
  deps: AppDeps,
  actor: Actor,
  input: { bulkId: string; pageNum: number; pageSize: number; rowStatus?: string },
  lang: Lang,
) {
  const { bulk } = await bulkOf(deps, actor, input.bulkId);
  const page = await q.rowsOf(deps.db, bulk.id, { ...input, status: input.rowStatus });
  return {
    ...(await summaryOf(deps, actor, bulk)),
    rows: {
      list: page.list.map((r) => presentRow(r, lang)),
      total: page.total,
      pageNum: input.pageNum,
      pageSize: input.pageSize,
    },
  };
}

export async function list(deps: AppDeps, actor: Actor, page: { pageNum: number; pageSize: number }) {
  const account = await accountOf(deps, actor);
  const found = await q.listBulks(deps.db, account, page);
  const out: BulkSummary[] = [];
  for (const b of found.list) out.push(await summaryOf(deps, actor, b));
  return { list: out, total: found.total, ...page };
}

/** The rows' results as an xlsx (row, status, title, parties, flow, reason) in the reader's language. */
export async function resultsSheet(deps: AppDeps, actor: Actor, bulkId: string, lang: Lang) {
  const { bulk } = await bulkOf(deps, actor, bulkId);
  const rows = (await q.allRowsOf(deps.db, bulk.id)).map((r) => presentRow(r, lang));
  const lines: (string | number)[][] = [
    [...B.resultHeaders[lang]],
    ...rows.map((r) => [
      r.row,
      B.rowStatus[r.status][lang],
      r.title,
      r.parties.join(' / '),
      r.flowId ?? '',
      r.message ?? '',
    ]),
  ];
  return {
    bytes: xlsxOf(B.resultsName[lang], lines),
    name: `${bulk.fileName.replace(/\.\w+$/, '')}-results.xlsx`,
  };
}

export type { RowProblem };
