import type { Actor } from '../../lib/actor.ts';
import type { PageSize } from '#contract/calls/document.ts';
import type { PartyInput } from '#contract/calls/flow.ts';
import {
  INITIATOR_FILLER,
  NUMBER_PATTERN,
  TEMPLATE_DOWNLOAD_PATH,
  type RoleAssignment,
  type Template,
  type TemplateDraft,
  type TemplateField,
  type TemplatePosition,
  type TemplateRole,
  type TemplateSummary,
  isCalendarDate,
  type launchTemplateFlow,
  type prepareTemplateLaunch,
  type saveTemplate,
} from '#contract/calls/template.ts';
import { FLOW_LIMITS } from '#contract/calls/flow.ts';
import { LAUNCH_FIELD_TYPES } from '#contract/calls/template.ts';
import { chineseOf } from '#contract/bilingual.ts';
import { CHOICE_KINDS, checkFieldValue } from '#contract/rules/fields.ts';
import { Code } from '#contract/codes.ts';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { getCompany, verifiedCompanyIdByName } from '../company/index.ts';
import {
  accountOf,
  blobBytes,
  deleteDocument,
  findDocument,
  ownDocument,
  pdfRefusal,
  presentDocument,
  uploadDocument,
} from '../document/index.ts';
import { findFlow } from '../flow/index.ts';
import type { Account } from '../../lib/account.ts';
import { launch } from '../flow/index.ts';
import { dateOf, jsonOf } from '../../db/sql-helpers.ts';
import { F } from '../flow/index.ts';
import { usersByIds } from '../session/index.ts';
import { type SignConfigRecord, findAccountConfig, liveConfigNames } from '../sign-config/index.ts';
import { normaliseApplies } from '../sign-config/index.ts';
import { S } from '../sign-config/index.ts';
import { type FieldFill, fillPdf } from '../../pdf/compose/fill-pdf.ts';
import * as q from './queries.ts';

type SaveInput = z.output<(typeof saveTemplate)['request']>;
type PrepareInput = z.output<(typeof prepareTemplateLaunch)['request']>;
type LaunchInput = z.output<(typeof launchTemplateFlow)['request']>;
type Rect = [number, number, number, number];
type Ctx = { ip?: string; userAgent?: string | null };

/** A field a role's signer fills in the signing room (issue 28), not at launch. */
export const isRoomField = (f: TemplateField) => f.fillAt === 'room';

const notFound = () => new AppError(Code.NotFound, S.templateNotFound);
const refuse = (text: { en: string; zh: string }) => new AppError(Code.Refused, text);

// ---------------------------------------------------------------------------------------------------------
// Presenting

/** A template row with the names of its configuration (null when none or deleted) and of its creator. */
type NamedTemplate = q.TemplateRecord & { signConfigName: string | null; createdByName: string | null };

/** Names the rows' configurations and creators: sign-config and session read their own tables. */
async function named(deps: AppDeps, found: q.TemplateRecord[]): Promise<NamedTemplate[]> {
  const ids = [...new Set(found.flatMap((r) => (r.signConfigId ? [r.signConfigId] : [])))];
  const names = await liveConfigNames(deps, ids);
  const creators = await usersByIds(
    deps.db,
    found.map((r) => r.createdBy),
  );
  return found.map((r) => ({
    ...r,
    signConfigName: r.signConfigId ? (names.get(r.signConfigId) ?? null) : null,
    createdByName: creators.get(r.createdBy)?.name ?? null,
  }));
}

function presentTemplate(row: NamedTemplate): Template {
  return {
    templateId: row.id,
    name: row.name,
    description: row.description,
    documentName: row.documentName,
    pages: row.pages,
    pageSizes: jsonOf<PageSize[]>(row.pageSizes),
    roles: jsonOf<TemplateRole[]>(row.roles),
    fields: jsonOf<TemplateField[]>(row.fields),
    positions: jsonOf<TemplatePosition[]>(row.positions),
    signConfigId: row.signConfigName ? row.signConfigId : null,
    signConfigName: row.signConfigName,
    downloadUrl: `${TEMPLATE_DOWNLOAD_PATH}/${row.id}`,
    createdByName: row.createdByName,
    createdAt: dateOf(row.createdAt).toISOString(),
    updatedAt: dateOf(row.updatedAt).toISOString(),
  };
}

function presentSummary(row: NamedTemplate): TemplateSummary {
  const t = presentTemplate(row);
  return {
    templateId: t.templateId,
    name: t.name,
    description: t.description,
    documentName: t.documentName,
    pages: t.pages,
    signConfigName: t.signConfigName,
    createdByName: t.createdByName,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    roleNames: [...t.roles].sort((a, b) => a.stepIndex - b.stepIndex).map((r) => r.name),
    fieldCount: t.fields.length,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Checking a template's content

/** A box on a page of the template, normalised (x1 < x2, y1 < y2); refused when off its page. */
function checkBox(what: string, page: number, rect: Rect, sizes: PageSize[]): Rect {
  const size = sizes[page - 1];
  const [a, b, c, d] = rect;
  const r: Rect = [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
  const slack = 1;
  if (
    !size ||
    r[2] - r[0] < 2 ||
    r[3] - r[1] < 2 ||
    r[0] < -slack ||
    r[1] < -slack ||
    r[2] > size.widthPt + slack ||
    r[3] > size.heightPt + slack
  )
    throw refuse(S.boxOffPage(what, page, sizes.length));
  return r.map((v) => Math.round(v * 100) / 100) as Rect;
}

/** Roles: unique keys and names, consistent applies, steps 0..n-1 without gaps, a bounded step size. */
function checkRoles(roles: TemplateRole[]): TemplateRole[] {
  const keys = new Set<string>();
  const names = new Set<string>();
  const out = roles.map((r) => {
    if (keys.has(r.key)) throw refuse(S.roleKeyTwice(r.key));
    if (names.has(r.name)) throw refuse(S.roleNameTwice(r.name));
    keys.add(r.key);
    names.add(r.name);
    return { ...r, applies: normaliseApplies(r.kind, r.applies, r.name) };
  });
  const steps = out.length ? Math.max(...out.map((r) => r.stepIndex)) + 1 : 0;
  for (let s = 0; s < steps; s++) {
    const n = out.filter((r) => r.stepIndex === s).length;
    if (n === 0) throw refuse(S.stepGap(s + 1));
    if (n > FLOW_LIMITS.partiesPerStep) throw refuse(S.tooManyInStep(s + 1, FLOW_LIMITS.partiesPerStep));
  }
  return out;
}

/** A field value checked against its type: the text written into the PDF, or a checkbox state. */
function checkValue(field: TemplateField, raw: string | boolean | null | undefined): string | boolean {
  if (field.type === 'checkbox') {
    const on = raw === true || raw === 'true';
    if (
      raw !== undefined &&
      raw !== null &&
      typeof raw !== 'boolean' &&
      raw !== 'true' &&
      raw !== 'false' &&
      raw !== ''
    )
      throw refuse(S.valueNotCheckbox(field.label));
    if (field.isRequired && !on) throw refuse(S.valueRequired(field.label));
    return on;
  }
  if (typeof raw === 'boolean') throw refuse(S.valueNotText(field.label));
  const text = (raw ?? '').trim();
  if (text === '') {
    if (field.isRequired) throw refuse(S.valueRequired(field.label));
    return '';
  }
  if (field.type === 'number' && !NUMBER_PATTERN.test(text)) throw refuse(S.valueNotNumber(field.label));
  if (field.type === 'date' && !isCalendarDate(text)) throw refuse(S.valueNotDate(field.label));
  if (!LAUNCH_FIELD_TYPES.includes(field.type)) throw refuse(S.fieldRoomOnly(field.label));
  // The kinds of issue 28 (multiline, radio, select, ID number, phone): the one rule of contract/rules/fields.ts.
  const c = checkFieldValue(
    { kind: field.type, isRequired: field.isRequired, options: field.options ?? null },
    raw ?? null,
  );
  if (!c.ok)
    throw refuse(S.valueProblem(field.label, { en: c.message, zh: chineseOf(c.message) ?? c.message }));
  return typeof c.value === 'string' ? c.value : text;
}

/**
 * What is wrong with a value for a field (the text a launch would refuse it with), or null when it is good:
 * bulk sending checks every row of a sheet with the launch's own rule.
 */
export function valueProblem(
  field: TemplateField,
  raw: string | boolean | null,
): { en: string; zh: string } | null {
  try {
    checkValue(field, raw);
    return null;
  } catch (err) {
    // Expected: checkValue's refusal, a text in both languages.
    if (err instanceof AppError && typeof err.text !== 'string') return err.text;
    throw err;
  }
}

function checkFields(fields: TemplateField[], roles: TemplateRole[], sizes: PageSize[]): TemplateField[] {
  const keys = new Set<string>();
  const roleKeys = new Set(roles.map((r) => r.key));
  return fields.map((f) => {
    if (keys.has(f.key)) throw refuse(S.fieldKeyTwice(f.key));
    keys.add(f.key);
    if (f.filler !== INITIATOR_FILLER && !roleKeys.has(f.filler)) throw refuse(S.fieldUnknownFiller(f.label));
    const isChoice = CHOICE_KINDS.includes(f.type);
    if (isChoice && !(f.options && f.options.length >= 2)) throw refuse(S.fieldNeedsOptions(f.label));
    if (!isChoice && f.options?.length) throw refuse(S.fieldNoOptions(f.label));
    const rect = checkBox(f.label, f.page, f.rect, sizes);
    // Filled in the room (issue 28): by a role's signer, any kind, no default.
    if (f.fillAt === 'room') {
      if (f.filler === INITIATOR_FILLER) throw refuse(S.fieldRoomNeedsRole(f.label));
      if (f.defaultValue !== null && f.defaultValue !== '') throw refuse(S.fieldRoomNoDefault(f.label));
      return { ...f, rect, defaultValue: null, options: isChoice ? f.options : undefined };
    }
    if (!LAUNCH_FIELD_TYPES.includes(f.type)) throw refuse(S.fieldRoomOnly(f.label));
    let defaultValue = f.defaultValue === '' ? null : f.defaultValue;
    if (defaultValue !== null) {
      try {
        const v = checkValue({ ...f, isRequired: false }, defaultValue);
        defaultValue = String(v);
      } catch (err) {
        // Expected: checkValue's refusal of the value; told as a bad default of this field.
        if (!(err instanceof AppError)) throw err;
        throw refuse(S.fieldBadDefault(f.label));
      }
    }
    return { ...f, rect, defaultValue, options: isChoice ? f.options : undefined };
  });
}

function checkPositions(positions: TemplatePosition[], roles: TemplateRole[], sizes: PageSize[]) {
  const seen = new Set<string>();
  return positions.map((p) => {
    const role = roles.find((r) => r.key === p.roleKey);
    if (!role) throw refuse(S.positionUnknownRole);
    // The engine writes one signature per party and document: one box per role.
    if (seen.has(p.roleKey)) throw refuse(S.positionTwice(role.name));
    seen.add(p.roleKey);
    return { ...p, rect: checkBox(role.name, p.page, p.rect, sizes) };
  });
}

/** The roles of a signing configuration, copied into a template: its steps become stepIndex. */
function rolesOfConfig(row: SignConfigRecord): TemplateRole[] {
  const steps = jsonOf<{ parties: Omit<TemplateRole, 'stepIndex'>[] }[]>(row.steps);
  return steps.flatMap((s, stepIndex) => s.parties.map((p) => ({ ...p, stepIndex })));
}

// ---------------------------------------------------------------------------------------------------------
// Templates

/** A template of the caller's account (accountOf checks a company caller's membership); 1101 otherwise. */
async function templateOf(deps: AppDeps, account: Account, id: string): Promise<NamedTemplate> {
  const row = await q.findTemplate(deps.db, account, id);
  if (!row) throw notFound();
  return (await named(deps, [row]))[0];
}

export async function getTemplate(deps: AppDeps, actor: Actor, id: string): Promise<Template> {
  return presentTemplate(await templateOf(deps, await accountOf(deps, actor), id));
}

/** The template PDF (for the editor and the preview), for the owning account only. */
export async function templatePdf(
  deps: AppDeps,
  actor: Actor,
  id: string,
): Promise<{ bytes: Uint8Array; name: string }> {
  const row = await templateOf(deps, await accountOf(deps, actor), id);
  return { bytes: await blobBytes(deps, row.blobKey), name: row.documentName };
}

export async function save(deps: AppDeps, actor: Actor, input: SaveInput): Promise<Template> {
  const account = await accountOf(deps, actor);
  const existing = input.templateId ? await templateOf(deps, account, input.templateId) : undefined;
  let source: { name: string; key: string; sha: string; pages: number; sizes: PageSize[] } | undefined;
  if (!existing) {
    if (!input.documentId) throw refuse(S.needsDocument);
    const doc = await ownDocument(deps, account, input.documentId);
    if (doc.flowId) throw refuse(S.documentLaunched);
    source = {
      name: doc.name,
      key: doc.currentKey,
      sha: doc.currentSha256,
      pages: doc.pages,
      sizes: jsonOf<PageSize[]>(doc.pageSizes),
    };
  }
  const sizes = existing ? jsonOf<PageSize[]>(existing.pageSizes) : source!.sizes;
  let roles = input.roles;
  let signConfigId: string | null = null;
  if (input.signConfigId) {
    const config = await findAccountConfig(deps, account, input.signConfigId);
    if (!config) throw new AppError(Code.NotFound, S.configNotFound);
    roles = rolesOfConfig(config);
    signConfigId = config.id;
  }
  roles = checkRoles(roles);
  const content = {
    name: input.name,
    description: input.description || null,
    roles,
    fields: checkFields(input.fields, roles, sizes),
    positions: checkPositions(input.positions, roles, sizes),
    signConfigId,
  };
  const now = deps.clock.now();
  let id: string;
  if (existing) {
    if (!(await q.updateTemplate(deps.db, account, existing.id, { ...content, now }))) throw notFound();
    id = existing.id;
  } else {
    id = await q.insertTemplate(deps.db, account, {
      ...content,
      documentName: source!.name,
      blobKey: source!.key,
      sha256: source!.sha,
      pages: source!.pages,
      pageSizes: sizes,
      createdBy: actor.userId,
      now,
    });
    // The upload became the template: it is no longer a document waiting to be launched.
    await deleteDocument(deps, actor, input.documentId!);
  }
  return presentTemplate(await templateOf(deps, account, id));
}

export async function list(
  deps: AppDeps,
  actor: Actor,
  f: { pageNum: number; pageSize: number; keyword?: string },
) {
  const account = await accountOf(deps, actor);
  const { list: found, total } = await q.listTemplates(deps.db, account, f);
  const list = (await named(deps, found)).map(presentSummary);
  return { list, total, pageNum: f.pageNum, pageSize: f.pageSize };
}

export async function remove(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  const account = await accountOf(deps, actor);
  if (!(await q.deleteTemplate(deps.db, account, id, deps.clock.now()))) throw notFound();
}

// ---------------------------------------------------------------------------------------------------------
// Launching from a template

/** Every role has exactly one party of its kind; a company party names a verified company. */
async function checkAssignments(
  deps: AppDeps,
  roles: TemplateRole[],
  assignments: RoleAssignment[],
): Promise<RoleAssignment[]> {
  const byRole = new Map<string, RoleAssignment>();
  for (const a of assignments) {
    const role = roles.find((r) => r.key === a.roleKey);
    if (!role) throw refuse(S.assignmentUnknownRole(a.roleKey));
    if (byRole.has(a.roleKey)) throw refuse(S.assignmentTwice(role.name));
    if (a.kind !== role.kind) throw refuse(S.assignmentKind(role.name, role.kind));
    byRole.set(a.roleKey, a);
  }
  const out: RoleAssignment[] = [];
  for (const role of roles) {
    const a = byRole.get(role.key);
    if (!a) throw refuse(S.assignmentMissing(role.name));
    if (a.kind === 'company') {
      const id =
        a.companyId ?? (a.companyName ? await verifiedCompanyIdByName(deps, a.companyName) : undefined);
      const company = id ? await getCompany(deps, id) : undefined;
      if (company?.status !== 'verified') throw refuse(F.companyUnknown);
      out.push({ ...a, companyId: company.id, companyName: company.name });
    } else out.push(a);
  }
  return out;
}

/** The values of one contract: every field checked, defaults applied, unknown keys refused. */
function checkValues(fields: TemplateField[], values: Record<string, string | boolean>) {
  for (const key of Object.keys(values)) {
    const field = fields.find((f) => f.key === key);
    if (!field) throw refuse(S.valueUnknownField(key));
    // A field the signer fills in the room (issue 28) takes no value at launch.
    if (isRoomField(field)) throw refuse(S.valueForRoomField(field.label));
  }
  const checked: Record<string, string | boolean> = {};
  for (const f of fields)
    if (!isRoomField(f)) checked[f.key] = checkValue(f, f.key in values ? values[f.key] : f.defaultValue);
  return checked;
}

async function presentDraft(deps: AppDeps, account: Account, draft: q.DraftRecord): Promise<TemplateDraft> {
  const template = await templateOf(deps, account, draft.templateId);
  const doc = await findDocument(deps.db, draft.documentId);
  if (!doc) throw new AppError(Code.NotFound, S.draftNotFound);
  const flow = draft.flowId ? await findFlow(deps.db, draft.flowId) : undefined;
  const t = presentTemplate(template);
  return {
    draftId: draft.id,
    templateId: t.templateId,
    templateName: t.name,
    title: draft.title,
    values: jsonOf<Record<string, string | boolean>>(draft.fieldValues),
    assignments: jsonOf<RoleAssignment[]>(draft.assignments),
    document: presentDocument(doc, flow?.status ?? null),
    roles: t.roles,
    positions: t.positions,
    flowId: draft.flowId,
    flowStatus: (flow?.status as TemplateDraft['flowStatus']) ?? null,
    createdAt: dateOf(draft.createdAt).toISOString(),
    updatedAt: dateOf(draft.updatedAt).toISOString(),
  };
}

export async function getDraft(deps: AppDeps, actor: Actor, id: string): Promise<TemplateDraft> {
  const account = await accountOf(deps, actor);
  const draft = await q.findDraft(deps.db, account, id);
  if (!draft) throw new AppError(Code.NotFound, S.draftNotFound);
  return presentDraft(deps, account, draft);
}

function checkLaunchable(t: Template): void {
  if (t.roles.length === 0) throw refuse(S.noRoles);
  for (const r of t.roles)
    if (!t.positions.some((p) => p.roleKey === r.key)) throw refuse(S.positionMissing(r.name));
}

/**
 * Fills a template for one contract: values and parties checked, the values written into a copy of the PDF
 * which becomes a document of the caller's account (not launched), and a draft that remembers all of it.
 */
export async function prepare(deps: AppDeps, actor: Actor, input: PrepareInput): Promise<TemplateDraft> {
  const account = await accountOf(deps, actor);
  const row = await templateOf(deps, account, input.templateId);
  const t = presentTemplate(row);
  checkLaunchable(t);
  const existing = input.draftId ? await q.findDraft(deps.db, account, input.draftId) : undefined;
  if (input.draftId && !existing) throw new AppError(Code.NotFound, S.draftNotFound);
  if (existing?.flowId) throw refuse(S.draftLaunched);
  if (existing && existing.templateId !== t.templateId) throw new AppError(Code.NotFound, S.draftNotFound);
  const values = checkValues(t.fields, input.values);
  const assignments = await checkAssignments(deps, t.roles, input.assignments);

  const fills: FieldFill[] = t.fields
    .filter((f) => !isRoomField(f))
    .map((f) => ({
      type: f.type,
      page: f.page,
      rect: f.rect,
      value: values[f.key],
      fontSize: f.fontSize,
    }));
  // A template file the PDF core will not rewrite safely (a reference cycle, say) is refused, named, not a 500.
  const filled = await fillPdf(await blobBytes(deps, row.blobKey), fills).catch((err: unknown) => {
    throw pdfRefusal(err) ?? err;
  });
  const doc = await uploadDocument(deps, actor, { bytes: filled, filename: t.documentName });
  const now = deps.clock.now();
  const content = { documentId: doc.documentId, title: input.title, values, assignments, now };
  let draftId: string;
  if (existing) {
    if (!(await q.updateDraft(deps.db, account, existing.id, content))) throw refuse(S.draftLaunched);
    draftId = existing.id;
    // The earlier filled copy is replaced; it was never launched (the draft was not).
    await deleteDocument(deps, actor, existing.documentId).catch((err: unknown) => {
      // Expected: the copy is already gone (404); anything else stays a failure.
      if (!(err instanceof AppError && err.code === Code.NotFound)) throw err;
    });
  } else
    draftId = await q.insertDraft(deps.db, account, {
      ...content,
      templateId: t.templateId,
      createdBy: actor.userId,
    });
  return presentDraft(deps, account, (await q.findDraft(deps.db, account, draftId))!);
}

/**
 * The flow a draft was launched into, or null: read from its document, which the launch moves into the flow in
 * its own transaction, so it is found even when the draft's own mark was lost (a crash right after the launch).
 */
export async function launchedFlowOfDraft(
  deps: AppDeps,
  actor: Actor,
  draftId: string,
): Promise<string | null> {
  const account = await accountOf(deps, actor);
  const draft = await q.findDraft(deps.db, account, draftId);
  if (!draft) return null;
  if (draft.flowId) return draft.flowId;
  return (await findDocument(deps.db, draft.documentId))?.flowId ?? null;
}

/**
 * Launches a draft through the flow engine's launch: the template's steps (roles of one step in parallel),
 * each role's party with its applies and the template's position on the filled document.
 */
export async function launchDraft(deps: AppDeps, actor: Actor, input: LaunchInput, ctx: Ctx) {
  const account = await accountOf(deps, actor);
  const draft = await q.findDraft(deps.db, account, input.draftId);
  if (!draft) throw new AppError(Code.NotFound, S.draftNotFound);
  if (draft.flowId) throw refuse(S.draftLaunched);
  const t = presentTemplate(await templateOf(deps, account, draft.templateId));
  checkLaunchable(t);
  // The template may have changed since the draft: its parties are checked against the roles of now.
  const assignments = await checkAssignments(deps, t.roles, jsonOf<RoleAssignment[]>(draft.assignments));
  const stepCount = Math.max(...t.roles.map((r) => r.stepIndex)) + 1;
  const steps = Array.from({ length: stepCount }, (_, s) => ({
    parties: t.roles
      .filter((r) => r.stepIndex === s)
      .map((role): PartyInput => {
        const a = assignments.find((x) => x.roleKey === role.key)!;
        const pos = t.positions.find((p) => p.roleKey === role.key)!;
        const positions = [{ documentId: draft.documentId, page: pos.page, rect: pos.rect }];
        // The fields this role's signer fills in the room (issue 28), at the template's boxes.
        const fields = t.fields
          .filter((f) => isRoomField(f) && f.filler === role.key)
          .map((f) => ({
            key: f.key,
            label: f.label,
            kind: f.type,
            isRequired: f.isRequired,
            ...(f.options ? { options: f.options } : {}),
            position: { documentId: draft.documentId, page: f.page, rect: f.rect },
          }));
        // drafts kept before the intent was chosen per role ask the SMS code, as launches did then
        const intent = a.intent ?? 'sms';
        if (a.kind === 'person')
          return {
            kind: 'person',
            name: a.name,
            phone: a.phone,
            applies: role.applies,
            positions,
            intent,
            fields,
          };
        return {
          kind: 'company',
          intent,
          companyId: a.companyId,
          operatorPhone: a.operatorPhone,
          operatorName: a.operatorName || undefined,
          applies: role.applies,
          positions,
          fields,
        };
      }),
  }));
  const result = await launch(
    deps,
    actor,
    {
      userType: actor.userType,
      title: draft.title,
      documentIds: [draft.documentId],
      steps,
      deadline: input.deadline,
      message: input.message,
      isQuick: false,
      amount: input.amount,
      cc: input.cc,
      term: input.term,
      renewsFlowId: input.renewsFlowId,
    },
    ctx,
    { templateId: draft.templateId },
  );
  await q.markDraftLaunched(deps.db, draft.id, result.flowId, deps.clock.now());
  return result;
}
