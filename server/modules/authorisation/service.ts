// Authorisation letters (issue 27): issue (the administrator's SMS intent check, the company-signed PDF),
// list, read, download, revoke, accept; and what the flow module asks through its hooks: which automatic-signing
// letter covers a party, one use counted in the signing transaction, which member letter covers a seal's use.
import { randomUUID } from 'node:crypto';
import type { Letter, LetterState } from '#contract/calls/authorisation.ts';
import { MAX_LETTER_DAYS, authorisationLetterPdfPath } from '#contract/calls/authorisation.ts';
import { SEAL_IMAGE_PATH } from '#contract/calls/seal.ts';
import { Code } from '#contract/codes.ts';
import { SealType, UserType } from '#contract/enums.ts';
import type { Actor } from '../../lib/actor.ts';
import type { AppDeps } from '../../deps.ts';
import { type Exec, dateOf, isoOrNull } from '../../db/sql-helpers.ts';
import { AppError } from '../../http/app-error.ts';
import { signerFromPki } from '../../pdf/sign/cms.ts';
import { listApiKeys } from '../apikey/index.ts';
import {
  type CompanyAccess,
  getCompany,
  listActiveMembers,
  recordCompanyEvent,
  requireCompanyRole,
  verifiedCompanyIdByName,
} from '../company/index.ts';
import { pkiFor } from '../pki/index.ts';
import { authoriseSeal, enabledCompanySeals, revokeSealAuthorisation } from '../seal/index.ts';
import { consumeSmsCode, findUserById, sendSmsCode, usersByIds } from '../session/index.ts';
import { getTemplate } from '../template/index.ts';
import { buildLetterPdf } from './letter-pdf.ts';
import * as q from './queries.ts';
import { A } from './texts.ts';

/** The SMS purpose of the issuer's intent check; the code is scoped to the company it is asked for. */
export const ISSUE_PURPOSE = 'authorisation:issue';
const scopeOf = (companyId: string) => `company:${companyId}`;
const DAY_MS = 86_400_000;
const maskPhone = (p: string) => `${p.slice(0, 3)}****${p.slice(-4)}`;
const notFound = () => new AppError(Code.NotFound, A.letterNotFound);
/** Who issues, revokes and accepts the company's letters: its administrator or its legal representative. */
const ISSUERS = ['admin', 'legal_rep'] as const;

/** Sends the administrator's intent code to their own phone. */
export async function sendIssueCode(deps: AppDeps, actor: Actor, ip: string) {
  const access = await requireCompanyRole(deps, actor, ISSUERS);
  const me = await findUserById(deps.db, access.userId);
  if (!me) throw notFound();
  const sent = await sendSmsCode(deps, me.phone, ISSUE_PURPOSE, ip, scopeOf(access.companyId));
  return { ...sent, phoneMasked: maskPhone(me.phone) };
}

type IssueInput = {
  kind: Letter['kind'];
  sealIds: string[];
  purpose: string;
  granteeUserId?: string;
  granteeCompanyName?: string;
  templateIds: string[];
  apiKeyIds: string[];
  validFrom: string;
  validTo: string;
  maxUses: number | null;
  smsCode: string;
};

/** The letter's state as people read it. */
function stateOf(row: q.LetterRow, now: Date): LetterState {
  if (row.status === 'revoked') return 'revoked';
  if (row.status === 'pending') return 'pending';
  if (dateOf(row.validTo) <= now) return 'expired';
  if (row.maxUses !== null && row.usedCount >= row.maxUses) return 'used_up';
  if (dateOf(row.validFrom) > now) return 'not_yet';
  return 'active';
}

/** Letters as the contract shows them, with the names of the people and companies they name. */
async function present(deps: AppDeps, companyId: string, rows: q.LetterRow[]): Promise<Letter[]> {
  const users = await usersByIds(
    deps.db,
    rows.flatMap((r) => [r.issuedBy, r.granteeUserId, r.revokedBy].filter((x): x is string => !!x)),
  );
  const companies = new Map<string, string>();
  for (const id of new Set(
    rows.flatMap((r) => [r.companyId, r.granteeCompanyId].filter((x): x is string => !!x)),
  ))
    companies.set(id, (await getCompany(deps, id))?.name ?? '');
  const now = deps.clock.now();
  return rows.map((r) => ({
    letterId: r.id,
    number: r.number,
    kind: r.kind,
    companyId: r.companyId,
    companyName: companies.get(r.companyId) ?? '',
    granteeUserId: r.granteeUserId,
    granteeCompanyId: r.granteeCompanyId,
    granteeName: r.granteeUserId
      ? (users.get(r.granteeUserId)?.name ?? null)
      : r.granteeCompanyId
        ? (companies.get(r.granteeCompanyId) ?? null)
        : null,
    seals: r.sealIds.map((s) => ({ sealId: s.id, name: s.name, imageUrl: `${SEAL_IMAGE_PATH}/${s.id}.png` })),
    purpose: r.purpose,
    templates: r.templateIds.map((t) => ({ templateId: t.id, name: t.name })),
    apiKeys: r.apiKeyIds.map((k) => ({ keyId: k.id, name: k.name })),
    validFrom: dateOf(r.validFrom).toISOString(),
    validTo: dateOf(r.validTo).toISOString(),
    maxUses: r.maxUses,
    usedCount: r.usedCount,
    state: stateOf(r, now),
    issuedByName: users.get(r.issuedBy)?.name ?? null,
    createdAt: dateOf(r.createdAt).toISOString(),
    acceptedAt: isoOrNull(r.acceptedAt),
    revokedAt: isoOrNull(r.revokedAt),
    revokedByName: r.revokedBy ? (users.get(r.revokedBy)?.name ?? null) : null,
    revokeReason: r.revokeReason,
    pdfSha256: r.pdfSha256,
    pdfUrl: authorisationLetterPdfPath(r.id),
    isMine: r.companyId === companyId,
  }));
}

/** What the letter grants, checked against the company's own seals, templates, keys and members. */
async function checkedScope(deps: AppDeps, actor: Actor, companyId: string, v: IssueInput) {
  const now = deps.clock.now();
  const validFrom = new Date(v.validFrom);
  const validTo = new Date(v.validTo);
  if (
    !(validTo > validFrom) ||
    !(validTo > now) ||
    validTo.getTime() - validFrom.getTime() > MAX_LETTER_DAYS * DAY_MS
  )
    throw new AppError(Code.Refused, A.badPeriod);
  const usable = await enabledCompanySeals(deps, companyId);
  const sealIds = [...new Set(v.sealIds)];
  const seals = sealIds.map((id) => usable.find((s) => s.id === id));
  if (seals.some((s) => !s)) throw new AppError(Code.Refused, A.sealNotFound);
  const chosen = seals as NonNullable<(typeof seals)[number]>[];
  const out = {
    validFrom,
    validTo,
    seals: chosen,
    templates: [] as q.Named[],
    apiKeys: [] as q.Named[],
    granteeUserId: null as string | null,
    granteeCompanyId: null as string | null,
    granteeName: '',
  };
  if (v.kind === 'auto_sign') {
    if (chosen.length !== 1 || chosen[0].sealType === SealType.LegalPerson)
      throw new AppError(Code.Refused, A.oneSealForAutoSign);
    if (v.templateIds.length + v.apiKeyIds.length === 0) throw new AppError(Code.Refused, A.needScope);
    for (const id of new Set(v.templateIds)) {
      try {
        out.templates.push({ id, name: (await getTemplate(deps, actor, id)).name });
      } catch (err) {
        if (err instanceof AppError) throw new AppError(Code.Refused, A.templateNotFound);
        throw err;
      }
    }
    const keys = v.apiKeyIds.length ? (await listApiKeys(deps, actor)).list : [];
    for (const id of new Set(v.apiKeyIds)) {
      const k = keys.find((x) => x.keyId === id && !x.revokedAt);
      if (!k) throw new AppError(Code.Refused, A.keyNotFound);
      out.apiKeys.push({ id, name: k.name });
    }
    out.granteeName = '电子签章平台（自动签署） e-Sign platform (automatic signing)';
  } else if (v.kind === 'member') {
    if (!v.granteeUserId) throw new AppError(Code.Refused, A.needGrantee);
    const member = (await listActiveMembers(deps, companyId)).find(
      (m) => m.userId === v.granteeUserId && m.role === 'operator',
    );
    if (!member) throw new AppError(Code.Refused, A.needGrantee);
    out.granteeUserId = member.userId;
    out.granteeName = `${member.name ?? ''} (${maskPhone(member.phone)})`;
  } else {
    if (!v.granteeCompanyName) throw new AppError(Code.Refused, A.needGranteeCompany);
    const id = await verifiedCompanyIdByName(deps, v.granteeCompanyName);
    if (!id) throw new AppError(Code.Refused, A.granteeCompanyNotFound);
    if (id === companyId) throw new AppError(Code.Refused, A.notOwnCompany);
    out.granteeCompanyId = id;
    out.granteeName = v.granteeCompanyName;
  }
  return out;
}

/** The issuer's intent check: their SMS code for issuing letters of this company (spent here). */
const confirmIssue = (
  deps: AppDeps,
  ready: Awaited<ReturnType<typeof readyToSign>>,
  companyId: string,
  code: string,
  ip: string,
) => consumeSmsCode(deps, ready.issuer.phone, ISSUE_PURPOSE, code, ip, scopeOf(companyId));

/**
 * Issues a letter: the scope checked, the administrator's SMS code spent, the PDF made and signed by the company
 * (its certificate, its official seal), kept as a blob; a member letter authorises the seal to the operator with
 * it (and supersedes that operator's earlier letter of the seal). Recorded as `letter_issued`.
 */
export async function issue(deps: AppDeps, actor: Actor, v: IssueInput, ip: string): Promise<Letter> {
  const access = await requireCompanyRole(deps, actor, ISSUERS);
  const scope = await checkedScope(deps, actor, access.companyId, v);
  const ready = await readyToSign(deps, access);
  // The intent check last: a refusal above does not burn the code.
  const { sentAt } = await confirmIssue(deps, ready, access.companyId, v.smsCode, ip);
  return issueChecked(deps, actor, access, ready, scope, v, { sentAt, ip });
}

/**
 * The authorize page (/manage/account/stamp/authorize): the seal authorised to each operator with a member letter
 * of its own, all confirmed by one SMS code.
 */
export async function authoriseWithLetters(
  deps: AppDeps,
  actor: Actor,
  v: { sealId: string; userIds: string[]; validFrom: string; validTo: string; smsCode: string },
  ip: string,
): Promise<{ letters: Letter[] }> {
  const access = await requireCompanyRole(deps, actor, ISSUERS);
  const inputs = [...new Set(v.userIds)].map(
    (granteeUserId): IssueInput => ({
      kind: 'member',
      sealIds: [v.sealId],
      purpose: '',
      granteeUserId,
      templateIds: [],
      apiKeyIds: [],
      validFrom: v.validFrom,
      validTo: v.validTo,
      maxUses: null,
      smsCode: v.smsCode,
    }),
  );
  const scopes = [];
  for (const input of inputs) scopes.push(await checkedScope(deps, actor, access.companyId, input));
  const ready = await readyToSign(deps, access);
  const { sentAt } = await confirmIssue(deps, ready, access.companyId, v.smsCode, ip);
  const letters: Letter[] = [];
  for (const [i, input] of inputs.entries())
    letters.push(await issueChecked(deps, actor, access, ready, scopes[i], input, { sentAt, ip }));
  return { letters };
}

/** The company, the issuer and the company's signing material, or the refusal that stops an issue. */
async function readyToSign(deps: AppDeps, access: { companyId: string; userId: string }) {
  const company = await getCompany(deps, access.companyId);
  const issuer = await findUserById(deps.db, access.userId);
  if (!company || !issuer) throw notFound();
  const pki = await pkiFor(deps);
  const material = await pki.signer({ userType: UserType.Company, accountId: access.companyId });
  if (!material) throw new AppError(Code.SignerNoCertificate, A.noCompanyCertificate);
  return { company, issuer, material };
}

/** Makes, signs, keeps and records one letter whose scope and intent were checked. */
async function issueChecked(
  deps: AppDeps,
  actor: Actor,
  access: CompanyAccess,
  ready: Awaited<ReturnType<typeof readyToSign>>,
  scope: Awaited<ReturnType<typeof checkedScope>>,
  v: IssueInput,
  intent: { sentAt: Date; ip: string },
): Promise<Letter> {
  const { company, issuer, material } = ready;
  const { sentAt, ip } = intent;
  const companyId = access.companyId;
  const now = deps.clock.now();
  const number = await q.nextNumber(deps.db, Number(now.toISOString().slice(0, 4)));
  const sealPdf = async (key: string) => {
    const bytes = await deps.storage.get(key);
    if (!bytes) throw new Error(`seal blob ${key} is missing`);
    return bytes;
  };
  const official = (await enabledCompanySeals(deps, companyId)).find((s) => s.sealType === SealType.Official);
  const pdf = await buildLetterPdf(
    deps,
    {
      number,
      kind: v.kind,
      company: { name: company.name, creditCode: company.creditCode, legalRepName: company.legalRepName },
      grantee: scope.granteeName,
      seals: await Promise.all(
        scope.seals.map(async (s) => ({ name: s.name, pdf: await sealPdf(s.pdfKey) })),
      ),
      purpose: v.purpose,
      templates: scope.templates.map((t) => t.name),
      apiKeys: scope.apiKeys.map((k) => k.name),
      validFrom: scope.validFrom,
      validTo: scope.validTo,
      maxUses: v.kind === 'auto_sign' ? v.maxUses : null,
      issuer: {
        name: issuer.name ?? '',
        phoneMasked: maskPhone(issuer.phone),
        codeSentAt: sentAt,
        asLegalRep: access.role !== 'admin' && !!access.isLegalRep,
      },
      issuedAt: now,
    },
    { signer: signerFromPki(material), appearance: await sealPdf((official ?? scope.seals[0]).pdfKey) },
  );
  const pdfKey = await deps.storage.put(pdf);
  let sealAuthorisationId: string | null = null;
  if (v.kind === 'member' && scope.granteeUserId) {
    const sealId = scope.seals[0].id;
    const seal = await authoriseSeal(deps, actor, {
      sealId,
      userIds: [scope.granteeUserId],
      validFrom: scope.validFrom.toISOString(),
      validTo: scope.validTo.toISOString(),
    });
    sealAuthorisationId = seal.authorisations.find((a) => a.userId === scope.granteeUserId)?.id ?? null;
  }
  const row = await deps.db.transaction(async (tx) => {
    if (v.kind === 'member' && scope.granteeUserId)
      for (const old of await q.liveMemberLetters(tx, companyId, scope.granteeUserId, scope.seals[0].id))
        await revokeIn(tx, companyId, old.id, access.userId, 'superseded by a new letter', now);
    const stored = await q.insertLetter(tx, {
      id: randomUUID(),
      number,
      companyId,
      kind: v.kind,
      granteeUserId: scope.granteeUserId,
      granteeCompanyId: scope.granteeCompanyId,
      sealIds: scope.seals.map((s) => ({ id: s.id, name: s.name, sealType: s.sealType })),
      purpose: v.purpose,
      templateIds: scope.templates,
      apiKeyIds: scope.apiKeys,
      validFrom: scope.validFrom,
      validTo: scope.validTo,
      maxUses: v.kind === 'auto_sign' ? v.maxUses : null,
      status: v.kind === 'company' ? 'pending' : 'active',
      pdfKey,
      pdfSha256: pdfKey,
      issuedBy: issuer.id,
      intent: { check: 'sms', phone: maskPhone(issuer.phone), codeSentAt: sentAt.toISOString(), ip },
      sealAuthorisationId,
      createdAt: now,
    });
    await recordCompanyEvent(tx, {
      companyId,
      kind: 'letter_issued',
      actorUserId: issuer.id,
      subjectUserId: scope.granteeUserId,
      detail: { number, kind: v.kind, seals: scope.seals.map((s) => s.name).join(', ') },
      now,
    });
    return stored;
  });
  return (await present(deps, companyId, [row]))[0];
}

/** Revokes in the transaction and records `letter_revoked`; the row, or undefined when it was revoked before. */
async function revokeIn(
  tx: Exec,
  companyId: string,
  id: string,
  by: string | null,
  reason: string,
  now: Date,
) {
  const row = await q.revokeLetter(tx, { companyId, id, by, reason, now });
  if (row)
    await recordCompanyEvent(tx, {
      companyId,
      kind: 'letter_revoked',
      actorUserId: by,
      subjectUserId: row.granteeUserId,
      detail: { number: row.number, kind: row.kind, ...(reason ? { reason } : {}) },
      now,
    });
  return row;
}

/** The company whose letters the caller reads: any active member of it. */
async function readerCompany(deps: AppDeps, actor: Actor) {
  return requireCompanyRole(deps, actor, [...ISSUERS, 'operator']);
}

/** An issuer reads every letter of the company; another member only those granted to them. */
const readsAll = (access: { role: string; isLegalRep?: boolean }) =>
  access.role === 'admin' || !!access.isLegalRep;

export async function list(
  deps: AppDeps,
  actor: Actor,
  v: { pageNum: number; pageSize: number; kind?: string },
) {
  const access = await readerCompany(deps, actor);
  const { rows, total } = await q.listLetters(deps.db, access.companyId, {
    userId: readsAll(access) ? undefined : access.userId,
    kind: v.kind,
    offset: (v.pageNum - 1) * v.pageSize,
    limit: v.pageSize,
  });
  return {
    list: await present(deps, access.companyId, rows),
    total,
    pageNum: v.pageNum,
    pageSize: v.pageSize,
  };
}

/** A letter the caller may read (an operator: only one granted to them); 1101 otherwise. */
async function readable(deps: AppDeps, actor: Actor, letterId: string) {
  const access = await readerCompany(deps, actor);
  const row = await q.findLetter(deps.db, access.companyId, letterId);
  if (!row || (!readsAll(access) && row.granteeUserId !== access.userId)) throw notFound();
  return { access, row };
}

export async function get(deps: AppDeps, actor: Actor, letterId: string): Promise<Letter> {
  const { access, row } = await readable(deps, actor, letterId);
  return (await present(deps, access.companyId, [row]))[0];
}

/** The signed letter PDF, for whoever may read the letter. */
export async function letterPdf(deps: AppDeps, actor: Actor, letterId: string) {
  const { row } = await readable(deps, actor, letterId);
  const bytes = await deps.storage.get(row.pdfKey);
  if (!bytes) throw new Error(`letter ${row.id} names a missing blob`);
  return { bytes, filename: `${row.number}.pdf` };
}

/** Revokes a letter of the caller's company (and a member letter's seal authorisation with it). */
export async function revoke(deps: AppDeps, actor: Actor, letterId: string, reason: string): Promise<Letter> {
  const access = await requireCompanyRole(deps, actor, ISSUERS);
  const existing = await q.findLetter(deps.db, access.companyId, letterId);
  if (!existing || existing.companyId !== access.companyId) throw notFound();
  if (existing.status === 'revoked') throw new AppError(Code.Refused, A.alreadyRevoked);
  const now = deps.clock.now();
  const row = await deps.db.transaction((tx) =>
    revokeIn(tx, access.companyId, letterId, access.userId, reason, now),
  );
  if (!row) throw new AppError(Code.Refused, A.alreadyRevoked);
  if (row.sealAuthorisationId) await endSealAuthorisation(deps, actor, row.sealAuthorisationId);
  return (await present(deps, access.companyId, [row]))[0];
}

/** Ends the seal authorisation a member letter was issued with (already ended: nothing to do). */
async function endSealAuthorisation(deps: AppDeps, actor: Actor, authorisationId: string) {
  try {
    await revokeSealAuthorisation(deps, actor, authorisationId);
  } catch (err) {
    if (!(err instanceof AppError && err.code === Code.NotFound)) throw err;
  }
}

/** The seal module ended a seal authorisation: the member letters issued with it end too. */
export async function sealAuthorisationEnded(
  deps: AppDeps,
  v: { companyId: string; authorisationId: string; by: string | null },
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    for (const row of await q.lettersOfSealAuthorisation(tx, v.authorisationId))
      if (row.companyId === v.companyId)
        await revokeIn(tx, v.companyId, row.id, v.by, 'seal authorisation revoked', now);
  });
}

/** The granted company's administrator accepts a company letter. */
export async function accept(deps: AppDeps, actor: Actor, letterId: string): Promise<Letter> {
  const access = await requireCompanyRole(deps, actor, ISSUERS);
  const existing = await q.findLetter(deps.db, access.companyId, letterId);
  if (!existing) throw notFound();
  if (existing.granteeCompanyId !== access.companyId) throw new AppError(Code.Refused, A.notForYou);
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const r = await q.acceptLetter(tx, { companyId: access.companyId, id: letterId, by: access.userId, now });
    if (!r) return undefined;
    for (const companyId of [r.companyId, access.companyId])
      await recordCompanyEvent(tx, {
        companyId,
        kind: 'letter_accepted',
        actorUserId: access.userId,
        detail: { number: r.number, kind: r.kind },
        now,
      });
    return r;
  });
  if (!row) throw new AppError(Code.Refused, A.notPending);
  return (await present(deps, access.companyId, [row]))[0];
}

/** flow's autoSignCover: the oldest automatic-signing letter in force whose seal fills the party's slot. */
export async function autoSignCover(
  deps: AppDeps,
  v: {
    companyId: string;
    templateId: string | null;
    apiKeyId: string | null;
    sealFits: (sealType: number | null) => boolean;
    letterId?: string;
  },
) {
  const rows = await q.autoSignLetters(deps.db, { ...v, now: deps.clock.now() });
  const row = rows.find((r) => r.sealIds.length === 1 && v.sealFits(r.sealIds[0].sealType ?? null));
  if (!row) return null;
  return {
    letterId: row.id,
    number: row.number,
    sealId: row.sealIds[0].id,
    sealType: row.sealIds[0].sealType ?? null,
    issuedBy: row.issuedBy,
  };
}

/** flow's useLetter: one use counted in the signing transaction, never past the count. */
export function useLetter(tx: Exec, letterId: string, now: Date): Promise<boolean> {
  return q.useLetter(tx, letterId, now);
}

/** flow's memberLetterCover: the number of the member letter covering the use, or null. */
export function memberLetterCover(
  deps: AppDeps,
  v: { companyId: string; userId: string; sealIds: string[]; now: Date },
): Promise<string | null> {
  return q.memberLetterFor(deps.db, v);
}

/** For the integrator API: the company's issued letters (an API key of the company), newest first. */
export async function listForKey(deps: AppDeps, actor: Actor, v: { pageNum: number; pageSize: number }) {
  if (actor.userType !== UserType.Company || !actor.companyId) throw notFound();
  const { rows, total } = await q.listLetters(deps.db, actor.companyId, {
    offset: (v.pageNum - 1) * v.pageSize,
    limit: v.pageSize,
  });
  return { list: await present(deps, actor.companyId, rows), total };
}

/** For the integrator API: one letter issued by or granted to the key's company; 1101 otherwise. */
export async function getForKey(deps: AppDeps, actor: Actor, letterId: string): Promise<Letter> {
  if (actor.userType !== UserType.Company || !actor.companyId) throw notFound();
  const row = await q.findLetter(deps.db, actor.companyId, letterId);
  if (!row) throw notFound();
  return (await present(deps, actor.companyId, [row]))[0];
}
