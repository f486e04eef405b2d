// The contract centre (issue 29): search over every flow the account sees (centre-queries.ts: the one
// "visible to the account" seam), its own tags and folders, saved views, and zips of selected contracts
// (up to CENTRE_ZIP_NOW flows in the request; more by the durable job `flow.centreZip`). Every id a caller
// names that is not its account's (a flow it does not see, another account's tag or folder, another user's
// view or zip) is 1101, as an unknown one.
import { randomUUID } from 'node:crypto';
import {
  CENTRE_ZIP_KEEP_DAYS,
  CENTRE_ZIP_NOW,
  CONTRACTS_ZIP_PATH,
  type CentreFilter,
  type ContractItem,
  type ContractsZip,
} from '#contract/calls/centre.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../../lib/actor.ts';
import { ZipWriter, zipSafeName } from '../../lib/zip.ts';
import { dateOf, isoOrNull, jsonOf } from '../../db/sql-helpers.ts';
import { accountOf, blobBytes, documentNamesOf, flowDocuments } from '../document/index.ts';
import { sessionActor } from './access.ts';
import * as cq from './centre-queries.ts';
import { CT } from './centre-texts.ts';
import { ensureAuditReport } from './complete.ts';
import { type Party, findFlow, maskPhone } from './model.ts';
import { signerScope } from './query.ts';
import { auditFlowEvent } from './room.ts';
import { flowRuntimeOf } from './runtime.ts';

export const CENTRE_ZIP_JOB = 'flow.centreZip';

/** The search's one statement (the benchmark explains it). */
export const searchStatement = cq.searchStatement;
export type { CentreQuery, CentreScope } from './centre-queries.ts';

const notFound = (what: keyof typeof CT) => new AppError(Code.NotFound, CT[what]);

/** The caller's account and the parties it signs for. */
export async function centreScope(deps: AppDeps, actor: Actor): Promise<cq.CentreScope> {
  const account = await accountOf(deps, actor);
  return { ownerType: account.ownerType, ownerId: account.ownerId, signer: await signerScope(deps, actor) };
}

const DAY_MS = 86_400_000;
/** A Beijing calendar day's first instant. */
const beijingDayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);

/** The filter checked against the account (its tags and folder) and turned into the query's terms. */
async function queryOf(deps: AppDeps, s: cq.CentreScope, f: CentreFilter): Promise<cq.CentreQuery> {
  if (f.tagIds?.length) {
    const own = await cq.ownLabelIds(deps.db, s, 'tags', f.tagIds);
    if (f.tagIds.some((id) => !own.has(id))) throw notFound('tagNotFound');
  }
  if (f.folderId && !(await cq.ownLabelIds(deps.db, s, 'folders', [f.folderId])).has(f.folderId))
    throw notFound('folderNotFound');
  if (f.dateFrom && f.dateTo && f.dateFrom > f.dateTo) throw new AppError(Code.Refused, CT.badDateRange);
  return {
    keyword: f.keyword?.trim() || undefined,
    status: f.status,
    dateField: f.dateField,
    from: f.dateFrom ? beijingDayStart(f.dateFrom) : undefined,
    until: f.dateTo ? new Date(beijingDayStart(f.dateTo).getTime() + DAY_MS) : undefined,
    templateId: f.templateId,
    senderUserId: f.senderUserId,
    tagIds: f.tagIds,
    folderId: f.folderId,
    direction: f.direction,
    sort: f.sort,
  };
}

/** A page of the contracts the account sees that match the filter. */
export async function searchContracts(
  deps: AppDeps,
  actor: Actor,
  body: { filter: CentreFilter; pageNum: number; pageSize: number },
) {
  const s = await centreScope(deps, actor);
  const { list, total } = await cq.searchPage(deps.db, s, await queryOf(deps, s, body.filter), body);
  const ids = list.map((f) => f.id);
  const [parties, names, labels] = await Promise.all([
    cq.partiesOfFlows(deps.db, ids),
    documentNamesOf(deps.db, ids),
    cq.labelsOfFlows(deps.db, s, ids),
  ]);
  const items: ContractItem[] = list.map((f) => ({
    flowId: f.id,
    title: f.title,
    status: f.status as ContractItem['status'],
    createdAt: dateOf(f.createdAt).toISOString(),
    completedAt: isoOrNull(f.completedAt),
    deadline: dateOf(f.deadline).toISOString(),
    initiatorUserId: f.initiatorUserId,
    initiatorName: f.initiatorName,
    initiatorCompanyName: f.initiatorCompanyName,
    templateId: f.templateId ?? null,
    isSent: f.via === 'sent',
    isReceived: f.via === 'received' || (f.via === 'sent' && isParty(s, parties.get(f.id) ?? [])),
    isCopied: f.via === 'copied',
    documentNames: names.get(f.id) ?? [],
    parties: (parties.get(f.id) ?? []).map((p) => ({
      kind: p.kind,
      name: p.name,
      companyName: p.companyName,
      phone: maskPhone(p.phone),
      status: p.status,
    })),
    tags: (labels.tags.get(f.id) ?? []).map((t) => ({ tagId: t.id, name: t.name, colour: t.colour })),
    folder: labels.folders.has(f.id)
      ? { folderId: labels.folders.get(f.id)!.id, name: labels.folders.get(f.id)!.name }
      : null,
  }));
  return { list: items, total, pageNum: body.pageNum, pageSize: body.pageSize };
}

function isParty(s: cq.CentreScope, parties: Party[]) {
  const who = s.signer;
  return parties.some((p) =>
    who.kind === 'person'
      ? p.kind === 'person' && p.phone === who.phone
      : p.kind === 'company' &&
        p.companyId === who.companyId &&
        (who.phone === null || p.phone === who.phone),
  );
}

/** The filter bar's choices: tags, folders, the caller's views, senders and templates. */
export async function centreLabels(deps: AppDeps, actor: Actor) {
  const s = await centreScope(deps, actor);
  const [tags, folders, views, more] = await Promise.all([
    cq.tagsOf(deps.db, s),
    cq.foldersOf(deps.db, s),
    cq.viewsOf(deps.db, actor.userId, s),
    cq.sendersAndTemplates(deps.db, s),
  ]);
  return {
    tags: tags.map((t) => ({ tagId: t.id, name: t.name, colour: t.colour })),
    folders: folders.map((f) => ({ folderId: f.id, name: f.name })),
    views: views.map((v) => ({ viewId: v.id, name: v.name, filter: jsonOf<CentreFilter>(v.filter) })),
    senders: more.senders.map((x) => ({ userId: x.userId, name: x.name ?? '' })),
    templates: more.templates,
  };
}

/** A tag saved: new, or renamed / recoloured (1101 when not the account's; 1100 for a name used twice). */
export async function saveTag(
  deps: AppDeps,
  actor: Actor,
  body: { tagId?: string; name: string; colour: string },
) {
  const s = await centreScope(deps, actor);
  if (body.tagId && !(await cq.ownLabelIds(deps.db, s, 'tags', [body.tagId])).has(body.tagId))
    throw notFound('tagNotFound');
  const row = await cq.upsertTag(deps.db, s, {
    id: body.tagId ?? randomUUID(),
    isNew: !body.tagId,
    name: body.name,
    colour: body.colour.toLowerCase(),
    now: deps.clock.now(),
  });
  if (!row) throw new AppError(Code.Refused, CT.tagNameTaken);
  return { tagId: row.id, name: row.name, colour: row.colour };
}

export async function saveFolder(deps: AppDeps, actor: Actor, body: { folderId?: string; name: string }) {
  const s = await centreScope(deps, actor);
  if (body.folderId && !(await cq.ownLabelIds(deps.db, s, 'folders', [body.folderId])).has(body.folderId))
    throw notFound('folderNotFound');
  const row = await cq.upsertFolder(deps.db, s, {
    id: body.folderId ?? randomUUID(),
    isNew: !body.folderId,
    name: body.name,
    now: deps.clock.now(),
  });
  if (!row) throw new AppError(Code.Refused, CT.folderNameTaken);
  return { folderId: row.id, name: row.name };
}

export async function deleteLabel(deps: AppDeps, actor: Actor, table: 'tags' | 'folders', id: string) {
  const s = await centreScope(deps, actor);
  if (!(await cq.deleteLabel(deps.db, s, table, id)))
    throw notFound(table === 'tags' ? 'tagNotFound' : 'folderNotFound');
  return null;
}

/** Refuses (1101) a selection with a flow the account does not see. */
async function requireVisible(deps: AppDeps, s: cq.CentreScope, flowIds: string[]): Promise<string[]> {
  const unique = [...new Set(flowIds)];
  const seen = await cq.visibleAmong(deps.db, s, unique);
  if (unique.some((id) => !seen.has(id))) throw notFound('contractNotFound');
  return unique;
}

export async function tagContracts(
  deps: AppDeps,
  actor: Actor,
  body: { flowIds: string[]; tagId: string; isOn: boolean },
) {
  const s = await centreScope(deps, actor);
  if (!(await cq.ownLabelIds(deps.db, s, 'tags', [body.tagId])).has(body.tagId))
    throw notFound('tagNotFound');
  const ids = await requireVisible(deps, s, body.flowIds);
  return { changed: await cq.setTag(deps.db, body.tagId, ids, body.isOn, deps.clock.now()) };
}

export async function moveContracts(
  deps: AppDeps,
  actor: Actor,
  body: { flowIds: string[]; folderId: string | null },
) {
  const s = await centreScope(deps, actor);
  if (body.folderId && !(await cq.ownLabelIds(deps.db, s, 'folders', [body.folderId])).has(body.folderId))
    throw notFound('folderNotFound');
  const ids = await requireVisible(deps, s, body.flowIds);
  return { changed: await cq.setFolder(deps.db, s, body.folderId, ids, deps.clock.now()) };
}

export async function saveView(
  deps: AppDeps,
  actor: Actor,
  body: { viewId?: string; name: string; filter: CentreFilter },
) {
  const s = await centreScope(deps, actor);
  const row = await cq.upsertView(deps.db, actor.userId, s, {
    id: body.viewId ?? randomUUID(),
    isNew: !body.viewId,
    name: body.name,
    filter: body.filter,
    now: deps.clock.now(),
  });
  if (!row) {
    const mine = await cq.viewsOf(deps.db, actor.userId, s);
    throw mine.some((v) => v.id === body.viewId)
      ? new AppError(Code.Refused, CT.viewNameTaken)
      : notFound('viewNotFound');
  }
  return { viewId: row.id, name: row.name, filter: jsonOf<CentreFilter>(row.filter) };
}

export async function deleteView(deps: AppDeps, actor: Actor, viewId: string) {
  if (!(await cq.deleteView(deps.db, actor.userId, viewId))) throw notFound('viewNotFound');
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Zips

function presentZip(z: cq.ZipRow): ContractsZip {
  return {
    zipId: z.id,
    status: z.status,
    total: z.total,
    done: z.done,
    size: z.size === null ? null : Number(z.size),
    downloadUrl: z.status === 'ready' ? `${CONTRACTS_ZIP_PATH}/${z.id}` : null,
    createdAt: dateOf(z.createdAt).toISOString(),
  };
}

/** A zip of the selection: built here for up to CENTRE_ZIP_NOW flows, else by the job. */
export async function startZip(deps: AppDeps, actor: Actor, flowIds: string[]): Promise<ContractsZip> {
  const s = await centreScope(deps, actor);
  const ids = await requireVisible(deps, s, flowIds);
  const id = randomUUID();
  await cq.insertZip(deps.db, { id, userId: actor.userId, account: s, flowIds: ids, now: deps.clock.now() });
  if (ids.length <= CENTRE_ZIP_NOW) await buildZip(deps, id);
  else await deps.jobs.send(CENTRE_ZIP_JOB, { zipId: id }, { singletonKey: id });
  return presentZip((await cq.findZip(deps.db, id))!);
}

/** The caller's zip (another user's: 1101). */
async function ownZip(deps: AppDeps, actor: Actor, zipId: string): Promise<cq.ZipRow> {
  const z = await cq.findZip(deps.db, zipId);
  if (!z || z.userId !== actor.userId) throw notFound('zipNotFound');
  const s = await centreScope(deps, actor);
  if (z.ownerType !== s.ownerType || z.ownerId !== s.ownerId) throw notFound('zipNotFound');
  return z;
}

export async function getZip(deps: AppDeps, actor: Actor, zipId: string): Promise<ContractsZip> {
  return presentZip(await ownZip(deps, actor, zipId));
}

/**
 * Builds a zip (the request, or the job; a job run again after a crash builds it anew). Per flow a folder
 * `NNN <title> <id8>/` with each document (the signed PDF once completed, else its current version) and the
 * completed flow's audit report. A failure marks the zip failed.
 */
export async function buildZip(deps: AppDeps, zipId: string): Promise<void> {
  const z = await cq.findZip(deps.db, zipId);
  if (z?.status !== 'building') return;
  const flowIds = jsonOf<string[]>(z.flowIds);
  try {
    const zip = new ZipWriter();
    const reportBuilds = flowRuntimeOf(deps).reportBuilds;
    for (const [i, flowId] of flowIds.entries()) {
      const docs = await flowDocuments(deps.db, flowId);
      const flow = (await findFlow(deps.db, flowId))!;
      const folder = `${String(i + 1).padStart(3, '0')} ${zipSafeName(flow.title)} ${flowId.slice(0, 8)}`;
      const isCompleted = flow.status === 'completed';
      for (const d of docs) {
        const base = zipSafeName(d.name.replace(/\.pdf$/i, ''));
        zip.add({
          name: `${folder}/${base}${isCompleted ? '-signed' : ''}.pdf`,
          bytes: await blobBytes(deps, d.currentKey),
          modified: deps.clock.now(),
        });
      }
      if (isCompleted)
        zip.add({
          name: `${folder}/audit-report.pdf`,
          bytes: await ensureAuditReport(deps, flowId, reportBuilds),
          modified: deps.clock.now(),
        });
      if (i % 5 === 4) await cq.zipProgress(deps.db, zipId, i + 1);
    }
    const bytes = zip.finish();
    const key = await deps.storage.put(bytes);
    await cq.finishZip(deps.db, zipId, {
      status: 'ready',
      blobKey: key,
      size: bytes.length,
      now: deps.clock.now(),
    });
  } catch (err) {
    deps.log.warn({ err, zipId }, 'contract centre: zip failed');
    await cq.finishZip(deps.db, zipId, {
      status: 'failed',
      blobKey: null,
      size: null,
      now: deps.clock.now(),
    });
  }
}

/**
 * flow.sweep: the zips ready for more than CENTRE_ZIP_KEEP_DAYS expire and their files are removed (a file
 * another zip still offers stays).
 */
export async function expireZips(deps: AppDeps): Promise<void> {
  const before = new Date(deps.clock.now().getTime() - CENTRE_ZIP_KEEP_DAYS * DAY_MS);
  for (const key of await cq.expireZips(deps.db, before)) await deps.storage.delete(key);
}

/** A ready zip's bytes for its user; every flow in it gets a download audit entry. */
export async function zipDownload(
  deps: AppDeps,
  actor: Actor,
  zipId: string,
  ctx: { ip?: string; userAgent?: string | null },
): Promise<{ bytes: Uint8Array; filename: string }> {
  const z = await ownZip(deps, actor, zipId);
  if (z.status === 'expired') throw new AppError(Code.Refused, CT.zipExpired);
  if (z.status !== 'ready' || !z.blobKey) throw new AppError(Code.Refused, CT.zipNotReady);
  const who = await sessionActor(deps, actor, ctx);
  for (const flowId of jsonOf<string[]>(z.flowIds))
    await auditFlowEvent(deps, flowId, 'download', who, 'contracts zip');
  const stamp = dateOf(z.createdAt).toISOString().slice(0, 10);
  return { bytes: await blobBytes(deps, z.blobKey), filename: `contracts-${stamp}-${z.id.slice(0, 8)}.zip` };
}
