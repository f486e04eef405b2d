import type { Actor } from '../../lib/actor.ts';
import { randomInt } from 'node:crypto';
import type { CompanySealDTO, Seal, SealAuthorisation } from '#contract/calls/seal.ts';
import { SEAL_IMAGE_PATH } from '#contract/calls/seal.ts';
import { Code } from '#contract/codes.ts';
import { SEAL_TYPE_NAMES, SealKind, SealStatus, SealType, UserType } from '#contract/enums.ts';
import type { SealRow } from '../../db/schema/seal.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, noPermission } from '../../http/app-error.ts';
import { layoutSeal } from '../../seal/layout.ts';
import { layoutToPdf, pngToPdf } from '../../seal/render-pdf.ts';
import { svgToPng } from '../../seal/render-png.ts';
import { layoutToSvg } from '../../seal/render-svg.ts';
import type { CompanySealDef, SealDef } from '../../seal/seal-def.ts';
import { isSealError } from '../../seal/seal-errors.ts';
import { prepareUploadedSeal } from '../../seal/uploaded-seal.ts';
import {
  type CompanyAccess,
  type MemberHandover,
  type MemberHandoverAnswer,
  getCompany,
  listActiveMembers,
  memberRoles,
  membersWithRole,
  recordCompanyEvent,
  requireCompanyRole,
} from '../company/index.ts';
import { verifiedNameOf } from '../person/index.ts';
import { currentCertificate, presentCertSummary } from '../pki/index.ts';
import { usersByIds } from '../session/index.ts';
import { sealAuthorisationEnded, sealInUnfinishedSigning } from './hooks.ts';
import * as q from './queries.ts';
import { S } from './texts.ts';

/** Print size of uploaded images: company seals 40 mm on the longer side, person seals 20 mm, signatures 40 mm wide. */
const COMPANY_UPLOAD_MM = 40;
const PERSON_SEAL_MM = 20;
const SIGNATURE_WIDTH_MM = 40;
const SIGNATURE_MAX_HEIGHT_MM = 20;

/** Who is asking: a person for their own seals, or a member of a company for the company's. */
type SealCaller = { kind: 'person'; userId: string } | { kind: 'company'; access: CompanyAccess };

/**
 * The caller of a seal call. A company session is checked against the membership on every call (a removed
 * operator loses access at once); the company always comes from the session, never from the body.
 */
export async function callerOf(deps: AppDeps, actor: Actor): Promise<SealCaller> {
  if (actor.userType === UserType.Company) {
    return { kind: 'company', access: await requireCompanyRole(deps, actor, ['admin', 'operator']) };
  }
  return { kind: 'person', userId: actor.userId };
}

const ownerOf = (c: SealCaller): q.SealOwner =>
  c.kind === 'person' ? q.personOwner(c.userId) : q.companyOwner(c.access.companyId);

/** Only the company administrator changes company seals; a person changes their own. */
async function requireManager(deps: AppDeps, actor: Actor): Promise<SealCaller> {
  if (actor.userType === UserType.Company) {
    return { kind: 'company', access: await requireCompanyRole(deps, actor, ['admin']) };
  }
  return { kind: 'person', userId: actor.userId };
}

function refusalOf(e: unknown): never {
  // The renderer's refusals carry their own bilingual message ("name too long: at most ...").
  if (isSealError(e)) throw new AppError(Code.Refused, e.text);
  throw e;
}

const notFound = () => new AppError(Code.NotFound, S.sealNotFound);

// ---------------------------------------------------------------------------------------------------------
// Presentation

function present(
  row: SealRow,
  auths: q.AuthorisationRow[],
  isUsable: boolean,
  now: Date,
  manage: { canManage: boolean; keepers?: string[] } = { canManage: false },
): Seal {
  const png = `${SEAL_IMAGE_PATH}/${row.id}.png`;
  return {
    canManage: manage.canManage,
    keeperUserIds: manage.keepers ?? [],
    id: row.id,
    sealType: row.sealType,
    name: row.name,
    kind: row.kind,
    status: row.status,
    imageUrl: row.svgKey ? `${SEAL_IMAGE_PATH}/${row.id}.svg` : png,
    pngUrl: png,
    widthMm: row.widthMm,
    heightMm: row.heightMm,
    antiCounterfeitNo: row.antiCounterfeitNo,
    createdAt: row.createdAt.toISOString(),
    isUsable,
    authorisations: auths
      .filter((a) => a.sealId === row.id)
      .map(
        (a): SealAuthorisation => ({
          id: a.id,
          userId: a.userId,
          userName: a.userName,
          phone: a.phone,
          validFrom: a.validFrom.toISOString(),
          validTo: a.validTo.toISOString(),
          isCurrent: a.validFrom <= now && now < a.validTo,
        }),
      ),
  };
}

/** The seals the caller sees, as getUserCertSealList lists them. */
/** Live authorisations of a company's seals with their holders' names and phones (session's users). */
async function authorisationsOf(
  deps: AppDeps,
  companyId: string,
  now: Date,
  onlyUserId?: string,
): Promise<q.AuthorisationRow[]> {
  const stored = await q.listAuthorisations(deps.db, companyId, now, onlyUserId);
  const holders = await usersByIds(
    deps.db,
    stored.map((a) => a.userId),
  );
  return stored.flatMap((a) => {
    const holder = holders.get(a.userId);
    return holder ? [{ ...a, userName: holder.name, phone: holder.phone }] : [];
  });
}

export async function listForCaller(deps: AppDeps, caller: SealCaller): Promise<Seal[]> {
  const now = deps.clock.now();
  const rows = await q.listSeals(deps.db, ownerOf(caller));
  if (caller.kind === 'person')
    return rows.map((r) => present(r, [], r.status === SealStatus.Enabled, now, { canManage: true }));
  const { access } = caller;
  if (access.role === 'admin') {
    const auths = await authorisationsOf(deps, access.companyId, now);
    const keepers = await q.keepersOf(deps.db, access.companyId);
    return rows.map((r) =>
      present(r, auths, r.status === SealStatus.Enabled, now, {
        canManage: true,
        keepers: keepers.get(r.id) ?? [],
      }),
    );
  }
  // A member sees what they may use now (a handler: enabled seals with an authorisation to them at this
  // moment) and, holding the seal_keeper role, the seals they keep with every live authorisation of them.
  const roles = await memberRoles(deps, access.companyId, access.userId);
  const kept = new Set(
    roles.includes('seal_keeper') ? await q.sealsKeptBy(deps.db, access.companyId, access.userId) : [],
  );
  const isHandler = roles.includes('handler');
  const all = kept.size > 0 ? await authorisationsOf(deps, access.companyId, now) : [];
  const mine = await authorisationsOf(deps, access.companyId, now, access.userId);
  const current = mine.filter((a) => a.validFrom <= now);
  const usable = (r: SealRow) =>
    isHandler && r.status === SealStatus.Enabled && current.some((a) => a.sealId === r.id);
  return rows
    .filter((r) => kept.has(r.id) || usable(r))
    .map((r) =>
      kept.has(r.id)
        ? present(r, all, usable(r), now, { canManage: true })
        : present(r, mine, true, now, { canManage: false }),
    );
}

/**
 * Who may manage a company seal (enable, disable, authorise to handlers and revoke, and its approval policy):
 * the administrator, the legal representative, or a member holding the seal_keeper role now who keeps this
 * seal. Anyone else, and a
 * seal of another company, gets 602. Read on every call: a revoked role or keeping stops the next call.
 */
export async function requireSealManager(
  deps: AppDeps,
  actor: Actor,
  sealId: string,
): Promise<CompanyAccess> {
  const access = await requireCompanyRole(deps, actor, ['admin', 'legal_rep', 'seal_keeper']);
  if (access.role === 'admin' || access.isLegalRep) return access;
  if (!(await q.sealsKeptBy(deps.db, access.companyId, access.userId)).includes(sealId)) throw noPermission();
  return access;
}

async function presentOne(deps: AppDeps, caller: SealCaller, sealId: string): Promise<Seal> {
  const row = await q.findSeal(deps.db, ownerOf(caller), sealId);
  if (!row) throw notFound();
  const now = deps.clock.now();
  if (caller.kind === 'person')
    return present(row, [], row.status === SealStatus.Enabled, now, { canManage: true });
  const auths = await authorisationsOf(deps, caller.access.companyId, now);
  const isAdmin = caller.access.role === 'admin';
  const keepers = isAdmin ? ((await q.keepersOf(deps.db, caller.access.companyId)).get(sealId) ?? []) : [];
  return present(row, auths, row.status === SealStatus.Enabled, now, { canManage: true, keepers });
}

/** The certificate summary of the caller's account (the company's when acting for a company). */
export async function certSummaryOf(deps: AppDeps, caller: SealCaller) {
  const holder =
    caller.kind === 'person'
      ? { userType: UserType.Person, accountId: caller.userId }
      : { userType: UserType.Company, accountId: caller.access.companyId };
  const cert = await currentCertificate(deps, holder);
  return cert ? presentCertSummary(cert) : null;
}

// ---------------------------------------------------------------------------------------------------------
// Making seals

type Rendered = { svg: string | null; png: Uint8Array; pdf: Uint8Array; widthMm: number; heightMm: number };

/** SVG, PNG (300 dpi) and the one-page PDF of a definition, all from one layout. */
async function renderAll(def: SealDef): Promise<Rendered> {
  try {
    const layout = layoutSeal(def);
    const svg = layoutToSvg(layout);
    return {
      svg,
      png: svgToPng(svg, layout.width, 300),
      pdf: await layoutToPdf(layout),
      widthMm: layout.width,
      heightMm: layout.height,
    };
  } catch (e) {
    refusalOf(e);
  }
}

/** Print size of an uploaded image in mm, keeping its proportions. */
function uploadSize(px: { width: number; height: number }, use: 'company' | 'person' | 'signature') {
  const ratio = px.height / px.width;
  if (use === 'signature') {
    let w = SIGNATURE_WIDTH_MM;
    if (w * ratio > SIGNATURE_MAX_HEIGHT_MM) w = SIGNATURE_MAX_HEIGHT_MM / ratio;
    return { widthMm: round2(w), heightMm: round2(w * ratio) };
  }
  const longest = use === 'company' ? COMPANY_UPLOAD_MM : PERSON_SEAL_MM;
  return ratio >= 1
    ? { widthMm: round2(longest / ratio), heightMm: longest }
    : { widthMm: longest, heightMm: round2(longest * ratio) };
}
const round2 = (v: number) => Math.round(v * 100) / 100;

async function store(
  deps: AppDeps,
  caller: SealCaller,
  createdBy: string,
  v: {
    sealType: number | null;
    name: string;
    kind: SealKind;
    definition: SealDef | null;
    rendered: Rendered;
    antiCounterfeitNo: string | null;
  },
): Promise<SealRow | null> {
  const { rendered } = v;
  // Blobs first: a row never names bytes that are not stored yet.
  const svgKey =
    rendered.svg === null ? null : await deps.storage.put(new TextEncoder().encode(rendered.svg));
  const pngKey = await deps.storage.put(rendered.png);
  const pdfKey = await deps.storage.put(rendered.pdf);
  return q.insertSeal(deps.db, {
    owner: ownerOf(caller),
    sealType: v.sealType,
    name: v.name,
    kind: v.kind,
    definition: v.definition,
    svgKey,
    pngKey,
    pdfKey,
    widthMm: round2(rendered.widthMm),
    heightMm: round2(rendered.heightMm),
    antiCounterfeitNo: v.antiCounterfeitNo,
    createdBy,
    now: deps.clock.now(),
  });
}

async function personSealDef(deps: AppDeps, userId: string): Promise<SealDef> {
  const name = await verifiedNameOf(deps, userId);
  if (!name) throw new AppError(Code.Refused, S.noRealName);
  return { kind: 'person', style: 'square', name };
}

/** savePersonSeal: a square name seal from the verified real name. */
export async function savePersonSeal(deps: AppDeps, actor: Actor): Promise<Seal> {
  const caller: SealCaller = { kind: 'person', userId: actor.userId };
  const def = await personSealDef(deps, actor.userId);
  const rendered = await renderAll(def);
  const name = def.kind === 'person' ? `${def.name.trim()}印` : '';
  const row = await store(deps, caller, actor.userId, {
    sealType: null,
    name,
    kind: SealKind.Generated,
    definition: def,
    rendered,
    antiCounterfeitNo: null,
  });
  if (!row) throw new Error('person seal insert conflicted without an anti-counterfeit number');
  return presentOne(deps, caller, row.id);
}

/** A fresh 13-digit anti-counterfeit number (the length printed on real seals). */
const newAntiCounterfeitNo = () => String(randomInt(1, 10)) + String(randomInt(0, 1e12)).padStart(12, '0');

async function companySealDef(
  deps: AppDeps,
  access: CompanyAccess,
  dto: CompanySealDTO,
): Promise<CompanySealDef> {
  const company = await getCompany(deps, access.companyId);
  return {
    kind: 'company',
    sealType: dto.sealType as SealType,
    companyName: access.companyName,
    purpose: dto.purpose ?? dto.sealName,
    // The company's own registered data fills what the form leaves out.
    taxpayerNumber: dto.taxpayerNumber?.trim() || company?.creditCode,
    legalPersonName: dto.legalPersonName?.trim() || company?.legalRepName,
    antiCounterfeitNo: dto.antiCounterfeitNo?.toUpperCase(),
    hasStar: dto.hasStar,
  };
}

function companySealName(def: CompanySealDef): string {
  if (def.sealType === SealType.Other) return (def.purpose ?? '').trim();
  if (def.sealType === SealType.LegalPerson) return `${(def.legalPersonName ?? '').trim()}印`;
  return SEAL_TYPE_NAMES[def.sealType].zh;
}

/** saveCompanySeal: the administrator generates a company seal. */
export async function saveCompanySeal(deps: AppDeps, actor: Actor, dto: CompanySealDTO): Promise<Seal> {
  // Authorisation: only the company's administrator creates company seals.
  const access = await requireCompanyRole(deps, actor, ['admin']);
  const caller: SealCaller = { kind: 'company', access };
  const base = await companySealDef(deps, access, dto);
  // A number the server makes is retried on the (unlikely) clash; a number the admin gave is refused.
  for (let attempt = 0; attempt < 5; attempt++) {
    const def: CompanySealDef = dto.generateAntiCounterfeitNo
      ? { ...base, antiCounterfeitNo: newAntiCounterfeitNo() }
      : base;
    const rendered = await renderAll(def);
    const no = def.antiCounterfeitNo?.trim() ? def.antiCounterfeitNo.trim().toUpperCase() : null;
    const row = await store(deps, caller, actor.userId, {
      sealType: def.sealType,
      name: companySealName(def),
      kind: SealKind.Generated,
      definition: def,
      rendered,
      antiCounterfeitNo: no,
    });
    if (row) return presentOne(deps, caller, row.id);
    if (!dto.generateAntiCounterfeitNo) break;
  }
  throw new AppError(Code.Refused, S.antiCounterfeitTaken);
}

/** previewSeal: the SVG of a definition, nothing stored. */
export async function previewSeal(
  deps: AppDeps,
  actor: Actor,
  dto: CompanySealDTO | { userType: 0 },
): Promise<{ svg: string; widthMm: number; heightMm: number }> {
  let def: SealDef;
  if (dto.userType === UserType.Company) {
    const access = await requireCompanyRole(deps, actor, ['admin']);
    def = await companySealDef(deps, access, dto as CompanySealDTO);
    if ((dto as CompanySealDTO).generateAntiCounterfeitNo)
      def = { ...def, antiCounterfeitNo: '0000000000000' };
  } else {
    def = await personSealDef(deps, actor.userId);
  }
  try {
    const layout = layoutSeal(def);
    return { svg: layoutToSvg(layout), widthMm: layout.width, heightMm: layout.height };
  } catch (e) {
    refusalOf(e);
  }
}

/** An uploaded image or a pad signature, checked and made transparent by the seal engine. */
export async function saveUploadedSeal(
  deps: AppDeps,
  actor: Actor,
  input: {
    bytes: Uint8Array;
    owner: 'person' | 'company';
    kind: SealKind;
    sealType?: number;
    sealName?: string;
  },
): Promise<Seal> {
  let caller: SealCaller;
  if (input.owner === 'company') {
    // Authorisation: only the company's administrator uploads company seals.
    caller = { kind: 'company', access: await requireCompanyRole(deps, actor, ['admin']) };
  } else {
    caller = { kind: 'person', userId: actor.userId };
  }
  let prepared: Awaited<ReturnType<typeof prepareUploadedSeal>>;
  try {
    prepared = await prepareUploadedSeal(input.bytes);
  } catch (e) {
    refusalOf(e);
  }
  const use = input.owner === 'company' ? 'company' : input.kind === SealKind.Drawn ? 'signature' : 'person';
  const size = uploadSize(prepared, use);
  const rendered: Rendered = {
    svg: null,
    png: prepared.png,
    pdf: await pngToPdf(prepared.png, size.widthMm, size.heightMm),
    ...size,
  };
  const sealType = input.owner === 'company' ? (input.sealType ?? SealType.Other) : null;
  const name =
    input.sealName?.trim() ||
    (sealType !== null
      ? SEAL_TYPE_NAMES[sealType as SealType].zh
      : ((await verifiedNameOf(deps, actor.userId)) ?? ''));
  const row = await store(deps, caller, actor.userId, {
    sealType,
    name,
    kind: input.kind,
    definition: null,
    rendered,
    antiCounterfeitNo: null,
  });
  if (!row) throw new Error('uploaded seal insert conflicted without an anti-counterfeit number');
  return presentOne(deps, caller, row.id);
}

// ---------------------------------------------------------------------------------------------------------
// Managing seals

export async function setSealStatus(
  deps: AppDeps,
  actor: Actor,
  sealId: string,
  status: SealStatus,
): Promise<Seal> {
  // A company seal: its administrator or one of its keepers; a person's: its owner.
  const caller: SealCaller =
    actor.userType === UserType.Company
      ? { kind: 'company', access: await requireSealManager(deps, actor, sealId) }
      : { kind: 'person', userId: actor.userId };
  const row = await q.findSeal(deps.db, ownerOf(caller), sealId);
  if (!row) throw notFound();
  await q.setStatus(deps.db, ownerOf(caller), sealId, status, deps.clock.now());
  return presentOne(deps, caller, sealId);
}

/** Whether a contract that is still being signed already carries the seal (then it cannot be deleted). */
async function isSealInUnfinishedSigning(deps: AppDeps, sealId: string): Promise<boolean> {
  return (await deps.hooks.collect(sealInUnfinishedSigning, { deps, sealId })).some(Boolean);
}

export async function deleteSeal(deps: AppDeps, actor: Actor, sealId: string): Promise<void> {
  const caller = await requireManager(deps, actor);
  const row = await q.findSeal(deps.db, ownerOf(caller), sealId);
  if (!row) throw notFound();
  if (await isSealInUnfinishedSigning(deps, sealId)) throw new AppError(Code.Refused, S.sealInUse);
  await q.markDeleted(deps.db, ownerOf(caller), sealId, deps.clock.now());
}

export async function authoriseSeal(
  deps: AppDeps,
  actor: Actor,
  input: { sealId: string; userIds: string[]; validFrom: string; validTo: string },
): Promise<Seal> {
  // Authorisation: the administrator, or a keeper of this seal, hands it to handlers.
  const access = await requireSealManager(deps, actor, input.sealId);
  const caller: SealCaller = { kind: 'company', access };
  const row = await q.findSeal(deps.db, q.companyOwner(access.companyId), input.sealId);
  if (!row) throw notFound();
  const now = deps.clock.now();
  const validFrom = new Date(input.validFrom);
  const validTo = new Date(input.validTo);
  if (!(validTo > validFrom) || !(validTo > now)) throw new AppError(Code.Refused, S.periodInvalid);
  // Only active handlers of THIS company: a user id of another company is refused, not silently added.
  const operators = new Set((await sealHandlers(deps, access.companyId)).map((m) => m.userId));
  const userIds = [...new Set(input.userIds)];
  if (!userIds.every((id) => operators.has(id))) throw new AppError(Code.Refused, S.notOperator);
  await q.authorise(deps.db, {
    companyId: access.companyId,
    sealId: row.id,
    userIds,
    validFrom,
    validTo,
    by: access.userId,
    now,
  });
  return presentOne(deps, caller, row.id);
}

export async function revokeSealAuthorisation(
  deps: AppDeps,
  actor: Actor,
  authorisationId: string,
): Promise<Seal> {
  const member = await requireCompanyRole(deps, actor, ['admin', 'legal_rep', 'seal_keeper']);
  const of = await q.authorisationSeal(deps.db, member.companyId, authorisationId);
  if (!of) throw new AppError(Code.NotFound, S.authorisationNotFound);
  const access = await requireSealManager(deps, actor, of);
  const sealId = await q.revokeAuthorisation(
    deps.db,
    access.companyId,
    authorisationId,
    access.userId,
    deps.clock.now(),
  );
  if (!sealId) throw new AppError(Code.NotFound, S.authorisationNotFound);
  await deps.hooks.emit(sealAuthorisationEnded, {
    deps,
    companyId: access.companyId,
    authorisationId,
    by: access.userId,
  });
  return presentOne(deps, { kind: 'company', access }, sealId);
}

/** Active members (not the administrator, who needs no authorisation) holding the handler role now. */
async function sealHandlers(deps: AppDeps, companyId: string) {
  const operators = new Set(
    (await listActiveMembers(deps, companyId)).filter((m) => m.role === 'operator').map((m) => m.userId),
  );
  return (await membersWithRole(deps, companyId, 'handler')).filter((m) => operators.has(m.userId));
}

/** The handlers a seal may be authorised to (the administrator or a seal keeper asks). */
export async function listSealOperators(deps: AppDeps, actor: Actor) {
  const access = await requireCompanyRole(deps, actor, ['admin', 'legal_rep', 'seal_keeper']);
  return (await sealHandlers(deps, access.companyId)).map((m) => ({
    userId: m.userId,
    name: m.name,
    phone: m.phone,
  }));
}

/**
 * setSealKeepers: the administrator names a company seal's keepers (exactly `userIds`, each an active member
 * holding the seal_keeper role now). Each keeper added or removed is one entry of the company's audit trail
 * (`seal_keeper_granted` / `_revoked`, detail `{sealId, sealName}`). Answers the seal.
 */
export async function setSealKeepers(
  deps: AppDeps,
  actor: Actor,
  input: { sealId: string; userIds: string[] },
): Promise<Seal> {
  const access = await requireCompanyRole(deps, actor, ['admin']);
  const row = await q.findSeal(deps.db, q.companyOwner(access.companyId), input.sealId);
  if (!row) throw notFound();
  const userIds = [...new Set(input.userIds)];
  const keepers = new Set(
    (await membersWithRole(deps, access.companyId, 'seal_keeper')).map((m) => m.userId),
  );
  if (!userIds.every((id) => keepers.has(id))) throw new AppError(Code.Refused, S.notKeeper);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const { added, removed } = await q.setKeepers(tx, {
      companyId: access.companyId,
      sealId: row.id,
      userIds,
      by: access.userId,
      now,
    });
    const detail = { sealId: row.id, sealName: row.name };
    for (const [kind, ids] of [
      ['seal_keeper_granted', added],
      ['seal_keeper_revoked', removed],
    ] as const)
      for (const subjectUserId of ids)
        await recordCompanyEvent(tx, {
          companyId: access.companyId,
          kind,
          actorUserId: access.userId,
          subjectUserId,
          detail,
          now,
        });
  });
  return presentOne(deps, { kind: 'company', access }, row.id);
}

/** Masks the middle of a company name for the public check: 杭州某某科技有限公司 -> 杭州******公司. */
function maskCompanyName(name: string): string {
  const chars = [...name];
  if (chars.length <= 2) return `${chars[0] ?? ''}*`;
  if (chars.length <= 4) return chars[0] + '*'.repeat(chars.length - 2) + chars[chars.length - 1];
  return chars.slice(0, 2).join('') + '*'.repeat(chars.length - 4) + chars.slice(-2).join('');
}

export async function checkAntiCounterfeitNo(deps: AppDeps, no: string) {
  const row = await q.findByAntiCounterfeitNo(deps.db, no.trim().toUpperCase());
  if (!row || row.ownerType !== UserType.Company || row.sealType === null) return null;
  const company = await getCompany(deps, row.ownerId);
  return {
    companyName: maskCompanyName(company?.name ?? ''),
    sealType: row.sealType,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
  };
}

/** hasSeal of the login info: an enabled seal the session may use (a handler: one authorised now). */
export async function hasUsableSeal(deps: AppDeps, actor: Actor): Promise<boolean> {
  const now = deps.clock.now();
  if (actor.userType !== UserType.Company) return q.hasEnabledSeal(deps.db, q.personOwner(actor.userId), now);
  let access: CompanyAccess;
  try {
    access = await requireCompanyRole(deps, actor, ['admin', 'handler']);
  } catch (err) {
    // Expected: the session may not act for its company (refused, no permission): then it has no seal.
    if (err instanceof AppError) return false;
    throw err;
  }
  const owner = q.companyOwner(access.companyId);
  return q.hasEnabledSeal(deps.db, owner, now, access.role === 'admin' ? undefined : access.userId);
}

// ---------------------------------------------------------------------------------------------------------
// Images and signing

/**
 * Whether the session may see a seal's image: the owner person, or an active member of the owning
 * company (any role). Others get 602; unknown seals 404 (decided by the caller of this).
 */
export async function requireImageAccess(deps: AppDeps, userId: string | null, row: SealRow): Promise<void> {
  if (!userId) throw noPermission();
  if (row.ownerType === UserType.Person) {
    if (row.ownerId !== userId) throw noPermission();
    return;
  }
  const members = await listActiveMembers(deps, row.ownerId);
  if (!members.some((m) => m.userId === userId)) throw noPermission();
}

/** Who signs: a person for themselves, or a member of a company for the company. */
type SealHolder = { userType: 0; userId: string } | { userType: 1; companyId: string; userId: string };

type SealForSigning = {
  sealId: string;
  name: string;
  /** One-page PDF whose page is the seal at print size (embed it as the appearance). */
  pdf: Uint8Array;
  widthMm: number;
  heightMm: number;
  /** The company seal type (SealType), null for person seals and signatures. */
  sealType: number | null;
};

/**
 * The appearance of a seal for the signing flow, after checking that the holder may sign with it now:
 * a person only with their own enabled seal; for a company, the administrator with any enabled company
 * seal and an operator only with an enabled seal authorised to them at this moment. Refuses with 404 for
 * a seal that is not the holder's (or the company's), 602 when the holder is no active member of the
 * company, and Code.Refused when the seal is disabled or not authorised now.
 */
export async function sealForSigning(
  deps: AppDeps,
  input: { actor: Actor; sealId: string } | { holder: SealHolder; sealId: string },
): Promise<SealForSigning> {
  const holder: SealHolder =
    'actor' in input
      ? input.actor.userType === UserType.Company && input.actor.companyId
        ? { userType: 1, companyId: input.actor.companyId, userId: input.actor.userId }
        : { userType: 0, userId: input.actor.userId }
      : input.holder;
  const now = deps.clock.now();
  let row: SealRow | undefined;
  if (holder.userType === UserType.Person) {
    row = await q.findSeal(deps.db, q.personOwner(holder.userId), input.sealId);
    if (!row) throw notFound();
    if (row.status !== SealStatus.Enabled) throw new AppError(Code.Refused, S.sealNotUsable);
  } else {
    // Authorisation: the holder must be the administrator or a handler now; a handler also needs a current
    // authorisation of the seal.
    const roles = await memberRoles(deps, holder.companyId, holder.userId);
    const company = await getCompany(deps, holder.companyId);
    if (!(roles.includes('admin') || roles.includes('handler')) || company?.status !== 'verified')
      throw noPermission();
    row = await q.findSeal(deps.db, q.companyOwner(holder.companyId), input.sealId);
    if (!row) throw notFound();
    const isAllowed =
      row.status === SealStatus.Enabled &&
      (roles.includes('admin') ||
        (await q.isAuthorisedNow(deps.db, holder.companyId, row.id, holder.userId, now)));
    if (!isAllowed) throw new AppError(Code.Refused, S.sealNotUsable);
  }
  // Signing embeds the seal's PDF only; its PNG (the picture the screens show) is not read here.
  const pdf = await deps.storage.get(row.pdfKey);
  if (!pdf) throw new Error(`seal ${row.id} names a missing blob`);
  return {
    sealId: row.id,
    name: row.name,
    pdf,
    widthMm: row.widthMm,
    heightMm: row.heightMm,
    sealType: row.sealType,
  };
}

/**
 * The enabled seals a user may sign with now: with `companyId`, the company's (every one for its
 * administrator, those authorised to them now for a handler, none for anyone else), and with
 * `personal`, the user's own. Company seals come first, each list newest first.
 */
export async function sealsUsableBy(
  deps: AppDeps,
  who: { userId: string; companyId: string | null; personal: boolean },
): Promise<SealRow[]> {
  const now = deps.clock.now();
  const out: SealRow[] = [];
  if (who.companyId) {
    const roles = await memberRoles(deps, who.companyId, who.userId);
    const isAdmin = roles.includes('admin');
    if (isAdmin || roles.includes('handler'))
      for (const s of await q.listSeals(deps.db, q.companyOwner(who.companyId))) {
        if (s.status !== SealStatus.Enabled) continue;
        if (!isAdmin && !(await q.isAuthorisedNow(deps.db, who.companyId, s.id, who.userId, now))) continue;
        out.push(s);
      }
  }
  if (who.personal)
    for (const s of await q.listSeals(deps.db, q.personOwner(who.userId)))
      if (s.status === SealStatus.Enabled) out.push(s);
  return out;
}

/** The company's enabled seals (what an authorisation letter may grant, issue 27). */
export async function enabledCompanySeals(deps: AppDeps, companyId: string): Promise<SealRow[]> {
  return (await q.listSeals(deps.db, q.companyOwner(companyId))).filter(
    (s) => s.status === SealStatus.Enabled,
  );
}

/**
 * The seal module's part of a member's hand-over (company's memberHandover hook): `from`'s live
 * authorisations of the company's seals become `to`'s for the same periods, and `from`'s keepings `to`'s
 * (a keeping acts only while its holder has the seal_keeper role). A dry run only counts.
 */
export async function handOverSeals(e: MemberHandover): Promise<MemberHandoverAnswer> {
  const counts = e.dryRun
    ? await q.handoverCounts(e.tx, { companyId: e.companyId, fromUserId: e.fromUserId, now: e.now })
    : await q.handOver(e.tx, {
        companyId: e.companyId,
        fromUserId: e.fromUserId,
        toUserId: e.toUserId,
        by: e.byUserId,
        now: e.now,
      });
  return { counts };
}

/** What another module shows of a company seal (approval's requests): its name, type and image URL. */
export type CompanySealInfo = { sealId: string; name: string; sealType: number | null; imageUrl: string };

/** A company's seal (not deleted) as other modules show it; undefined when the company has no such seal. */
export async function companySealInfo(
  deps: AppDeps,
  companyId: string,
  sealId: string,
): Promise<CompanySealInfo | undefined> {
  const row = await q.findSeal(deps.db, q.companyOwner(companyId), sealId);
  if (!row) return undefined;
  return {
    sealId: row.id,
    name: row.name,
    sealType: row.sealType,
    imageUrl: present(row, [], false, deps.clock.now()).imageUrl,
  };
}
