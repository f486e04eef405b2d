import { countOf } from '#contract/plural.ts';
// Seal-use approval (用印审批, issue 27): a company seal's policy, the requests a handler makes from the signing
// room, the approvers' decisions, and the check the signature makes before a company seal lands. An approval is
// bound to ONE flow party, ONE seal and the exact document versions it was asked for, and expires.
import { randomUUID } from 'node:crypto';
import type {
  ApprovalDetail,
  ApprovalMode,
  ApprovalStatus,
  ApprovalSummary,
  LaunchPolicy,
  SealPolicy,
} from '#contract/calls/approval.ts';
import { approvalDocument } from '#contract/paths/approval.ts';
import { Code, HttpStatus } from '#contract/codes.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { hitSlidingCounter } from '../../db/rate-counter.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../http/texts.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditActor, appendAudit } from '../audit/index.ts';
import {
  getCompany,
  hasMemberRole,
  listActiveMembers,
  memberRoles,
  membersWithRole,
  recordCompanyEvent,
  requireCompanyRole,
} from '../company/index.ts';
import { blobBytes, findDocument, lockDocument, versionReasonsAfter } from '../document/index.ts';
import {
  type CompanySealInfo,
  companySealInfo,
  requireSealManager,
  roomTokenUser,
  sealsUsableBy,
} from '../seal/index.ts';
import { usersByIds } from '../session/index.ts';
import { type ApprovalEvent, approvalEvent, approvalNotice, launchDecided } from './hooks.ts';
import * as q from './queries.ts';
import { A, both } from './texts.ts';

const HOUR_MS = 60 * 60 * 1000;
/** New requests per party and seal in any hour (each one texts the approvers). */
export const REQUESTS_MAX_PER_HOUR = 10;
const DEFAULT_VALID_HOURS = 72;
/** Later versions of a bound document that leave the contract as it was approved: signatures only. */
const SIGNATURE_REASONS = new Set(['sign', 'ltv']);

const maskPhone = (p: string) => `${p.slice(0, 3)}****${p.slice(-4)}`;
const fenToYuan = (fen: number | null) => (fen === null ? null : fen / 100);
const notFound = () => new AppError(Code.NotFound, A.approvalNotFound);
const noPermission = (text = A.notAnApproverOfThis) =>
  new AppError(Code.Refused, text, { status: HttpStatus.NoPermission });

/** A pending or approved request past its time is expired, whatever is stored (it is stored so when touched). */
export function effectiveStatus(row: q.ApprovalRow, now: Date): q.ApprovalStatus {
  // An approved launch request sent its flow when it was approved: nothing is left to expire.
  if (row.kind === 'launch' && row.status === 'approved') return row.status;
  if ((row.status === 'pending' || row.status === 'approved') && row.expiresAt.getTime() <= now.getTime())
    return 'expired';
  return row.status;
}

// ---------------------------------------------------------------------------------------------------------
// Policies

/**
 * Who may change a seal's policy: the company's administrator, or a keeper of that seal (seal's
 * requireSealManager: 602 for anyone else). The ONE place that decides it.
 */
export async function requirePolicyManager(
  deps: AppDeps,
  actor: Actor,
  sealId: string,
): Promise<{ companyId: string; userId: string; seal: CompanySealInfo }> {
  const access = await requireSealManager(deps, actor, sealId);
  const seal = await companySealInfo(deps, access.companyId, sealId);
  if (!seal) throw new AppError(Code.NotFound, A.sealNotFound);
  return { companyId: access.companyId, userId: access.userId, seal };
}

/** Who may read a seal's policy: its manager, and the company's approvers and seal keepers. */
async function requirePolicyReader(deps: AppDeps, actor: Actor, sealId: string) {
  const access = await requireCompanyRole(deps, actor, ['admin', 'operator']);
  const roles = await memberRoles(deps, access.companyId, access.userId);
  if (!roles.some((r) => r === 'admin' || r === 'approver' || r === 'seal_keeper'))
    throw new AppError(Code.Refused, A.notAnApproverOfThis, { status: HttpStatus.NoPermission });
  const seal = await companySealInfo(deps, access.companyId, sealId);
  if (!seal) throw new AppError(Code.NotFound, A.sealNotFound);
  return { companyId: access.companyId, seal };
}

/** A rule as the screens show it (a seal's policy without its seal, or the launch rule). */
async function presentRule(
  deps: AppDeps,
  companyId: string,
  row: q.RuleRow | undefined,
): Promise<LaunchPolicy> {
  const candidates = await membersWithRole(deps, companyId, 'approver');
  const isApprover = new Set(candidates.map((c) => c.userId));
  const ids = row?.approverIds ?? [];
  const users = await usersByIds(deps.db, ids);
  return {
    mode: row?.mode ?? 'none',
    approvers: ids.map((userId) => {
      const u = users.get(userId);
      return {
        userId,
        name: u?.name ?? null,
        phoneMasked: u ? maskPhone(u.phone) : '',
        isApprover: isApprover.has(userId),
      };
    }),
    minAmount: fenToYuan(row?.minAmountFen ?? null),
    templateIds: row?.templateIds ?? null,
    allowSelfApproval: row?.allowSelfApproval ?? false,
    validHours: row?.validHours ?? DEFAULT_VALID_HOURS,
    candidates: candidates.map((c) => ({ userId: c.userId, name: c.name, phoneMasked: maskPhone(c.phone) })),
    updatedAt: row ? row.updatedAt.toISOString() : null,
    updatedBy: row?.updatedBy ?? null,
  };
}

async function presentPolicy(
  deps: AppDeps,
  companyId: string,
  sealId: string,
  row: q.PolicyRow | undefined,
): Promise<SealPolicy> {
  return { sealId, ...(await presentRule(deps, companyId, row)) };
}

export async function getSealPolicy(deps: AppDeps, actor: Actor, sealId: string): Promise<SealPolicy> {
  const { companyId } = await requirePolicyReader(deps, actor, sealId);
  return presentPolicy(deps, companyId, sealId, await q.findPolicy(deps.db, companyId, sealId));
}

/**
 * Sets a seal's policy. Approvers must hold the approver role now. The seal's pending and approved-unused
 * requests become void (`policy_changed`); the change goes into the company's audit trail.
 */
/** What a rule is saved from (a seal's policy, the launch rule). */
type RuleInput = {
  mode: ApprovalMode;
  approverIds: string[];
  minAmount: number | null;
  templateIds: string[] | null;
  allowSelfApproval: boolean;
  validHours: number;
};

/** What the company's audit trail records of a saved rule. */
const ruleDetail = (v: RuleInput) => ({
  mode: v.mode,
  approverIds: v.approverIds,
  minAmount: v.minAmount,
  templateIds: v.templateIds,
  allowSelfApproval: v.allowSelfApproval,
  validHours: v.validHours,
});

/** A rule's row from what was asked, after checking its approvers (each holding the approver role now). */
async function checkedRule(deps: AppDeps, companyId: string, v: RuleInput) {
  if (new Set(v.approverIds).size !== v.approverIds.length)
    throw new AppError(Code.Refused, A.duplicateApprover);
  if (v.mode !== 'none' && v.approverIds.length === 0) throw new AppError(Code.Refused, A.needApprovers);
  if (v.approverIds.length) {
    const users = await usersByIds(deps.db, v.approverIds);
    for (const id of v.approverIds)
      if (!(await hasMemberRole(deps, companyId, id, 'approver')))
        throw new AppError(Code.Refused, A.notApprover(users.get(id)?.name ?? id));
  }
  return {
    companyId,
    mode: v.mode,
    approverIds: v.approverIds,
    minAmountFen: v.minAmount === null ? null : Math.round(v.minAmount * 100),
    templateIds: v.templateIds,
    allowSelfApproval: v.allowSelfApproval,
    validHours: v.validHours,
  };
}

export async function saveSealPolicy(
  deps: AppDeps,
  actor: Actor,
  v: RuleInput & { sealId: string },
): Promise<SealPolicy> {
  const { companyId, userId, seal } = await requirePolicyManager(deps, actor, v.sealId);
  const row = { sealId: v.sealId, ...(await checkedRule(deps, companyId, v)) };
  const now = deps.clock.now();
  const actorEntry = await auditActorOf(deps, companyId, userId);
  await deps.db.transaction(async (tx) => {
    await q.upsertPolicy(tx, { ...row, updatedBy: userId, now });
    // The documents first, then the requests: the order a signature takes them in (it holds its document
    // when it marks its approval used), so the two never wait for each other in a circle.
    const open = await q.openDocumentsOfSeal(tx, companyId, v.sealId);
    for (const documentId of [...new Set(open)].sort()) await lockDocument(tx, documentId);
    const voided = await q.voidOpenOfSeal(tx, companyId, v.sealId, 'policy_changed');
    await auditVoided(tx, voided, 'policy_changed', actorEntry, now);
    await recordCompanyEvent(tx, {
      companyId,
      kind: 'seal_policy_changed',
      actorUserId: userId,
      detail: {
        sealId: v.sealId,
        sealName: seal.name,
        ...ruleDetail(v),
        voided: voided.length,
      },
      now,
    });
  });
  return presentPolicy(deps, companyId, v.sealId, await q.findPolicy(deps.db, companyId, v.sealId));
}

/** What a policy looks at of a flow. */
export type FlowOfUse = { templateId: string | null; amountFen: number | null };

/**
 * Whether the policy asks for approval of a use in this flow: a mode other than none; the amount at least the
 * minimum when one is set (a flow without an amount needs approval then); the template among the listed ones
 * when some are.
 */
export function policyApplies<P extends q.RuleRow>(p: P | undefined, flow: FlowOfUse): p is P {
  if (!p || p.mode === 'none') return false;
  if (p.templateIds !== null && !(flow.templateId && p.templateIds.includes(flow.templateId))) return false;
  if (p.minAmountFen !== null && flow.amountFen !== null && flow.amountFen < p.minAmountFen) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// The check at sealing

/** A document version as the signature is about to seal it. */
export type DocumentNow = { documentId: string; version: number; sha256: string };

type Use = FlowOfUse & {
  companyId: string;
  sealId: string;
  flowId: string;
  partyId: string;
  userId: string;
  documents: DocumentNow[];
};

/**
 * Whether the request's bound versions are still the contract: the same documents, and every version made
 * since a bound one only a signature (other parties signing in parallel do not change the contract).
 */
async function stillMatches(ex: Exec, row: q.ApprovalRow, now: readonly DocumentNow[]): Promise<boolean> {
  if (row.documents.length !== now.length) return false;
  for (const d of now) {
    const bound = row.documents.find((b) => b.documentId === d.documentId);
    if (!bound || bound.version > d.version) return false;
    if (bound.version === d.version) {
      if (bound.sha256 !== d.sha256) return false;
      continue;
    }
    const reasons = await versionReasonsAfter(ex, d.documentId, bound.version);
    if (!reasons.every((r) => SIGNATURE_REASONS.has(r))) return false;
  }
  return true;
}

/**
 * The usable approval of this party and seal (approved, unexpired, its documents still the contract), after
 * storing what the newest requests have become (expired; void when the document changed). A `used` one
 * counts for the party that used it: its documents are signed one transaction each, so a signature resumed
 * after a failure between two documents still finds it.
 */
async function usableApproval(
  deps: AppDeps,
  use: Omit<Use, 'templateId' | 'amountFen' | 'userId'>,
): Promise<{ usable?: q.ApprovalRow; latest?: q.ApprovalRow }> {
  const now = deps.clock.now();
  const rows = await q.approvalsOfPartySeal(deps.db, use.partyId, use.sealId);
  for (const row of rows) {
    if (row.flowId !== use.flowId || row.companyId !== use.companyId) continue;
    const status = effectiveStatus(row, now);
    if (status !== row.status) {
      await q.setStatus(deps.db, row.id, { status, from: [row.status], now });
      row.status = status;
    }
    if (status !== 'approved' && status !== 'used' && status !== 'pending') continue;
    if (!(await stillMatches(deps.db, row, use.documents))) {
      await voidApproval(deps, row, 'document_changed');
      row.status = 'void';
      row.voidReason = 'document_changed';
      continue;
    }
    if (status === 'approved' || status === 'used') return { usable: row, latest: rows[0] };
  }
  return { latest: rows[0] };
}

/**
 * Before a company seal is applied (flow's signature): when the seal's policy applies to this flow, the party
 * needs an approved, unexpired approval for this seal whose documents are still the contract; otherwise
 * SealApprovalRequired (1330, data {sealId, approvalId, status} of the latest request or null). Answers the
 * approval's id to mark used in the signing transaction, or null when the seal needs no approval here.
 */
export async function requireApprovedUse(deps: AppDeps, use: Use): Promise<string | null> {
  const policy = await q.findPolicy(deps.db, use.companyId, use.sealId);
  if (!policyApplies(policy, use)) return null;
  const { usable, latest } = await usableApproval(deps, use);
  if (usable) return usable.id;
  throw new AppError(Code.SealApprovalRequired, A.approvalRequired, {
    data: {
      sealId: use.sealId,
      approvalId: latest?.id ?? null,
      status: latest ? effectiveStatus(latest, deps.clock.now()) : null,
    },
  });
}

/**
 * In the transaction that stores a signature: the approvals it was made under become `used`. Refused (1330)
 * when one stopped being usable meanwhile (a policy change, the flow's end), so the signature is not stored.
 */
export async function markApprovalsUsed(tx: Exec, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  if ((await q.markUsed(tx, ids, now)) !== ids.length)
    throw new AppError(Code.SealApprovalRequired, A.approvalRequired, { data: { approvalId: ids[0] } });
}

// ---------------------------------------------------------------------------------------------------------
// Void

/** An `approval_void` entry in the flow's audit trail for each voided request (on each bound document). */
async function auditVoided(tx: Exec, voided: q.Voided[], reason: string, actor: AuditActor, at: Date) {
  for (const v of voided)
    await auditOnDocuments(tx, v, {
      ...actor,
      event: 'approval_void',
      detail: `approval ${v.id} · ${reason}`,
      at,
    });
}

/**
 * One entry of the flow's audit trail on each document the approval is bound to (what the approval concerns is
 * read on every document's trail). `sameHash`: the entry records the bound version's hash as before and after.
 */
async function auditOnDocuments(
  tx: Exec,
  approval: { flowId: string; documents: readonly { documentId: string; sha256: string }[] },
  entry: AuditActor & {
    event: 'approval_requested' | 'approval_decided' | 'approval_void';
    detail: string;
    at: Date;
    sameHash?: boolean;
  },
) {
  const { sameHash, ...rest } = entry;
  for (const d of approval.documents)
    await appendAudit(tx, {
      ...rest,
      flowId: approval.flowId,
      documentId: d.documentId,
      ...(sameHash ? { hashBefore: d.sha256, hashAfter: d.sha256 } : {}),
    });
}

const PLATFORM: AuditActor = { actor: 'platform' };

async function voidApproval(deps: AppDeps, row: q.ApprovalRow, reason: string) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const voided = await q.voidOne(tx, row.id, reason);
    await auditVoided(tx, voided, reason, PLATFORM, now);
  });
}

/**
 * A flow that ends (cancelled, declined, expired) voids its open requests, in the transaction that ends it
 * (flow's end path calls it).
 */
export async function voidForFlow(tx: Exec, flowId: string, reason: string, at: Date): Promise<void> {
  const voided = await q.voidOpenOfFlow(tx, flowId, reason);
  await auditVoided(tx, voided, reason, PLATFORM, at);
}

// ---------------------------------------------------------------------------------------------------------
// Presentation

async function auditActorOf(deps: AppDeps, companyId: string, userId: string): Promise<AuditActor> {
  const [users, company] = await Promise.all([usersByIds(deps.db, [userId]), getCompany(deps, companyId)]);
  const u = users.get(userId);
  return {
    actor: u?.name ?? (u ? maskPhone(u.phone) : userId),
    actorPhone: u?.phone ?? null,
    actorCompany: company?.name ?? null,
  };
}

type ApproverState = 'approved' | 'rejected' | 'waiting' | 'not_yet';

/** Each approver's state: decided, waiting (their turn, or any order), or not yet asked (in order). */
function approverStates(row: q.ApprovalRow, decisions: q.DecisionRow[], now: Date) {
  const isOpen = effectiveStatus(row, now) === 'pending';
  let isEarlierWaiting = false;
  return row.approverIds.map((userId) => {
    const d = decisions.find((x) => x.approverUserId === userId);
    let state: ApproverState;
    if (d) state = d.decision === 'approve' ? 'approved' : 'rejected';
    else if (!isOpen || (row.mode === 'all_in_order' && isEarlierWaiting)) state = 'not_yet';
    else {
      state = 'waiting';
      isEarlierWaiting = true;
    }
    return { userId, state };
  });
}

/** Whether `userId` may decide the request now (role aside: decide checks it). */
function canDecide(row: q.ApprovalRow, decisions: q.DecisionRow[], userId: string, now: Date): boolean {
  if (!row.allowSelfApproval && row.requesterUserId === userId) return false;
  return approverStates(row, decisions, now).some((s) => s.userId === userId && s.state === 'waiting');
}

/** Those an open request waits for now (told when asked, and in order when the previous one approved). */
function waitingFor(row: q.ApprovalRow, decisions: q.DecisionRow[], now: Date): string[] {
  return approverStates(row, decisions, now)
    .filter((s) => s.state === 'waiting' && (row.allowSelfApproval || s.userId !== row.requesterUserId))
    .map((s) => s.userId);
}

const documentUrl = (approvalId: string, documentId: string) =>
  `${approvalDocument.path}/${approvalId}/${documentId}.pdf`;

async function presentAll(deps: AppDeps, rows: q.ApprovalRow[], viewerUserId: string | null) {
  const now = deps.clock.now();
  const decisions = await q.decisionsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  const userIds = new Set<string>();
  for (const r of rows) {
    userIds.add(r.requesterUserId);
    userIds.add(r.flowFacts.initiatorUserId);
    for (const a of r.approverIds) userIds.add(a);
  }
  const users = await usersByIds(deps.db, [...userIds]);
  const seals = new Map<string, CompanySealInfo | undefined>();
  const companies = new Map<string, string>();
  for (const r of rows) {
    if (r.sealId && !seals.has(r.sealId))
      seals.set(r.sealId, await companySealInfo(deps, r.companyId, r.sealId));
    if (!companies.has(r.companyId))
      companies.set(r.companyId, (await getCompany(deps, r.companyId))?.name ?? '');
  }
  return rows.map((r) => {
    const mine = decisions.filter((d) => d.approvalId === r.id);
    const requester = users.get(r.requesterUserId);
    const seal = r.sealId ? seals.get(r.sealId) : undefined;
    const summary: ApprovalSummary = {
      approvalId: r.id,
      kind: r.kind,
      status: effectiveStatus(r, now) as ApprovalStatus,
      flowId: r.flowId,
      flowTitle: r.flowFacts.title,
      amount: fenToYuan(r.flowFacts.amountFen),
      sealId: r.sealId,
      sealName: seal?.name ?? '',
      sealImageUrl: seal?.imageUrl ?? '',
      requesterName: requester?.name ?? null,
      requesterPhoneMasked: requester ? maskPhone(requester.phone) : '',
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      canDecide: viewerUserId !== null && canDecide(r, mine, viewerUserId, now),
    };
    const detail: ApprovalDetail = {
      ...summary,
      mode: r.mode,
      companyName: companies.get(r.companyId) ?? '',
      partyStep: r.flowFacts.partyStep,
      parties: r.flowFacts.parties ?? [],
      initiatorName: users.get(r.flowFacts.initiatorUserId)?.name ?? null,
      initiatorCompanyName: r.flowFacts.initiatorCompanyName,
      documents: r.documents.map((d) => ({
        documentId: d.documentId,
        name: d.name,
        sha256: d.sha256,
        pageCount: d.pages,
        url: documentUrl(r.id, d.documentId),
      })),
      approvers: approverStates(r, mine, now).map((s) => ({
        userId: s.userId,
        name: users.get(s.userId)?.name ?? null,
        state: s.state,
      })),
      decisions: mine.map((d) => ({
        userId: d.approverUserId,
        name: users.get(d.approverUserId)?.name ?? null,
        decision: d.decision,
        comment: d.comment,
        at: d.at.toISOString(),
      })),
      voidReason: r.voidReason,
    };
    return { summary, detail };
  });
}

const presentOne = async (deps: AppDeps, row: q.ApprovalRow, viewer: string | null) =>
  (await presentAll(deps, [row], viewer))[0].detail;

// ---------------------------------------------------------------------------------------------------------
// Telling people

async function tell(
  deps: AppDeps,
  row: q.ApprovalRow,
  to: string[],
  what: {
    kind: 'approval_requested' | 'approval_decided';
    title: string;
    text: string;
    purpose: string;
    /** The SMS template's `name`: the requester (a request) or the seal (a decision). */
    who: string;
  },
) {
  const users = await usersByIds(deps.db, to);
  const link = `/mobile/approvals/${row.id}`;
  const url = `${deps.config.publicUrl}/#${link}`;
  for (const userId of to) {
    const u = users.get(userId);
    if (!u) continue;
    await deps.messenger.notify({
      to: u.phone,
      userId,
      purpose: what.purpose,
      text: `【电子签章】${what.text} ${url}`,
      // The SMS template's variables and the e-mail (to a person who gave an address).
      mail: { kind: what.kind, who: what.who, flowTitle: row.flowFacts.title, link: url },
    });
    await deps.hooks.emit(approvalNotice, {
      deps,
      phone: u.phone,
      companyId: row.companyId,
      kind: what.kind,
      title: what.title,
      text: what.text,
      flowId: row.flowId,
      link,
    });
  }
}

async function tellApprovers(deps: AppDeps, row: q.ApprovalRow, to: string[], sealName: string) {
  if (to.length === 0) return;
  const requester = (await usersByIds(deps.db, [row.requesterUserId])).get(row.requesterUserId);
  const who = requester?.name ?? (requester ? maskPhone(requester.phone) : '');
  const isLaunch = row.kind === 'launch';
  await tell(deps, row, to, {
    kind: 'approval_requested',
    purpose: 'approval:requested',
    who,
    title: both(isLaunch ? A.noticeLaunchRequestedTitle : A.noticeRequestedTitle(sealName)),
    text: both(
      isLaunch
        ? A.noticeLaunchRequested(who, row.flowFacts.title)
        : A.noticeRequested(who, sealName, row.flowFacts.title),
    ),
  });
}

async function tellRequester(deps: AppDeps, row: q.ApprovalRow, sealName: string, comment: string | null) {
  const isLaunch = row.kind === 'launch';
  await tell(deps, row, [row.requesterUserId], {
    kind: 'approval_decided',
    purpose: 'approval:decided',
    who: isLaunch ? row.flowFacts.title : sealName,
    title: both(isLaunch ? A.noticeLaunchDecidedTitle : A.noticeDecidedTitle(sealName)),
    text: both(
      isLaunch
        ? A.noticeLaunchDecided(row.status, row.flowFacts.title, comment)
        : A.noticeDecided(row.status, sealName, row.flowFacts.title, comment),
    ),
  });
}

/** The webhook event of a request or decision, stored in the change's transaction (an outbox). */
async function storeEvent(
  deps: AppDeps,
  tx: Exec,
  type: ApprovalEvent['type'],
  row: q.ApprovalRow,
  sealName: string,
  decision?: ApprovalEvent['data']['decision'],
): Promise<() => Promise<void>> {
  const after = await deps.hooks.collect(approvalEvent, {
    deps,
    tx,
    event: {
      type,
      at: deps.clock.now(),
      companyId: row.companyId,
      data: {
        approvalId: row.id,
        kind: row.kind,
        status: row.status,
        flowId: row.flowId,
        flowTitle: row.flowFacts.title,
        partyId: row.partyId,
        sealId: row.sealId,
        sealName,
        requesterUserId: row.requesterUserId,
        ...(decision ? { decision } : {}),
      },
    },
  });
  return async () => {
    for (const run of after) if (run) await run();
  };
}

// ---------------------------------------------------------------------------------------------------------
// Requests (flow's room calls)

/** The room's party and flow as flow presents them to a request. */
export type RoomUse = {
  companyId: string;
  userId: string;
  flow: FlowOfUse & {
    id: string;
    title: string;
    initiatorUserId: string;
    initiatorCompanyName: string | null;
  };
  party: { id: string; step: number };
  /** The party's documents now (the versions a request binds). */
  documents: (DocumentNow & { blobKey: string; name: string; pages: number })[];
  /** Who the audit trail names. */
  auditActor: AuditActor;
};

/** Whether the room's user may use the seal for the company now (active member, seal usable by them). */
async function requireSealUser(deps: AppDeps, use: RoomUse, sealId: string) {
  const usable = await sealsUsableBy(deps, { userId: use.userId, companyId: use.companyId, personal: false });
  if (!usable.some((s) => s.id === sealId))
    throw new AppError(Code.Refused, A.cannotUseSeal, { status: HttpStatus.NoPermission });
}

/** Whether the policy's approvers can meet it now (enough of them still hold the approver role). */
async function requireMeetable(
  deps: AppDeps,
  policy: q.RuleRow,
  requesterId: string,
  texts: { cannotBeMet: Text; ownOnly: Text } = {
    cannotBeMet: A.policyCannotBeMet,
    ownOnly: A.ownRequestOnly,
  },
) {
  let holders = 0;
  for (const id of policy.approverIds)
    if (await hasMemberRole(deps, policy.companyId, id, 'approver')) holders++;
  const isMet = policy.mode === 'one' ? holders > 0 : holders === policy.approverIds.length;
  if (!isMet) throw new AppError(Code.Refused, texts.cannotBeMet);
  // A request its requester alone could decide, who may not decide their own: nobody ever could.
  const isRequesterNeeded =
    !policy.allowSelfApproval &&
    policy.approverIds.includes(requesterId) &&
    (policy.mode !== 'one' || policy.approverIds.length === 1);
  if (isRequesterNeeded) throw new AppError(Code.Refused, texts.ownOnly);
}

/**
 * requestSealApproval: asks for approval to apply the seal to the party's documents as they are now. A usable
 * approval, or a request still waiting, of the party for the seal whose documents are still the contract is
 * answered again (one waiting request per party and seal, a unique index); otherwise a new one (at most
 * REQUESTS_MAX_PER_HOUR per party and seal), its approvers told.
 */
export async function requestApproval(deps: AppDeps, use: RoomUse, sealId: string): Promise<ApprovalDetail> {
  const seal = await companySealInfo(deps, use.companyId, sealId);
  if (!seal) throw new AppError(Code.NotFound, A.sealNotFound);
  await requireSealUser(deps, use, sealId);
  const policy = await q.findPolicy(deps.db, use.companyId, sealId);
  if (!policyApplies(policy, use.flow)) throw new AppError(Code.Refused, A.approvalNotNeeded);
  await requireMeetable(deps, policy, use.userId);
  const now = deps.clock.now();
  // The party's requests for the seal as they stand (lapsed ones stored expired, those whose document changed
  // void): a usable approval or a request still waiting for the same contract is answered again.
  const found = await usableApproval(deps, {
    companyId: use.companyId,
    sealId,
    flowId: use.flow.id,
    partyId: use.party.id,
    documents: use.documents,
  });
  const open = found.usable ?? (await waitingRequest(deps, use.party.id, sealId));
  if (open) return presentOne(deps, open, use.userId);
  const hits = await hitSlidingCounter(deps.db, `approval:${use.party.id}:${sealId}`, HOUR_MS, now);
  if (hits > REQUESTS_MAX_PER_HOUR) throw new AppError(Code.RateLimited, A.tooManyRequests);
  const row: q.ApprovalRow = {
    id: randomUUID(),
    kind: 'seal',
    companyId: use.companyId,
    sealId,
    flowId: use.flow.id,
    partyId: use.party.id,
    requesterUserId: use.userId,
    mode: policy.mode as q.RequestMode,
    approverIds: policy.approverIds,
    allowSelfApproval: policy.allowSelfApproval,
    validHours: policy.validHours,
    documents: use.documents.map((d) => ({
      documentId: d.documentId,
      version: d.version,
      sha256: d.sha256,
      blobKey: d.blobKey,
      name: d.name,
      pages: d.pages,
    })),
    flowFacts: {
      title: use.flow.title,
      amountFen: use.flow.amountFen,
      partyStep: use.party.step,
      initiatorUserId: use.flow.initiatorUserId,
      initiatorCompanyName: use.flow.initiatorCompanyName,
    },
    status: 'pending',
    createdAt: now,
    // Undecided, a request lapses after the policy's valid hours too.
    expiresAt: new Date(now.getTime() + policy.validHours * HOUR_MS),
    decidedAt: null,
    usedAt: null,
    voidReason: null,
  };
  let afterCommit: () => Promise<void>;
  try {
    afterCommit = await storeRequest(deps, row, use.auditActor, seal.name);
  } catch (err) {
    // Another request of the party for the seal was made at the same moment: answer that one.
    const other = isUniqueViolation(err) ? await waitingRequest(deps, use.party.id, sealId) : undefined;
    if (other) return presentOne(deps, other, use.userId);
    throw err;
  }
  await afterCommit();
  await tellApprovers(deps, row, waitingFor(row, [], now), seal.name);
  return presentOne(deps, row, use.userId);
}

/** The party's request for the seal waiting for approvers now, if any. */
async function waitingRequest(deps: AppDeps, partyId: string, sealId: string) {
  const now = deps.clock.now();
  return (await q.approvalsOfPartySeal(deps.db, partyId, sealId)).find(
    (r) => effectiveStatus(r, now) === 'pending',
  );
}

/** A new request in one transaction with its audit entries, the company's trail and its webhook event. */
function storeRequest(deps: AppDeps, row: q.ApprovalRow, auditActor: AuditActor, sealName: string) {
  return deps.db.transaction((tx) => storeRequestIn(deps, tx, row, auditActor, sealName));
}

/** storeRequest in `tx` (also the launch's transaction): answers the webhook delivery after the commit. */
async function storeRequestIn(
  deps: AppDeps,
  tx: Exec,
  row: q.ApprovalRow,
  auditActor: AuditActor,
  sealName: string,
) {
  const now = row.createdAt;
  const what = row.kind === 'launch' ? 'launch' : `seal ${sealName}`;
  await q.insertApproval(tx, row);
  await auditOnDocuments(tx, row, {
    ...auditActor,
    event: 'approval_requested',
    detail: `approval ${row.id} · ${what} · ${countOf(row.approverIds.length, 'approver', 'approvers')} · ${row.mode}`,
    at: now,
    sameHash: true,
  });
  await recordCompanyEvent(tx, {
    companyId: row.companyId,
    kind: 'approval_requested',
    actorUserId: row.requesterUserId,
    detail: {
      approvalId: row.id,
      kind: row.kind,
      ...(row.sealId ? { sealId: row.sealId, sealName } : {}),
      flowId: row.flowId,
      flowTitle: row.flowFacts.title,
    },
    now,
  });
  return storeEvent(deps, tx, 'approval.requested', row, sealName);
}

/**
 * getRoomApprovals: per company seal the room's user may use, whether it needs an approval for this flow now
 * and the latest request for it.
 */
export async function roomApprovals(
  deps: AppDeps,
  use: RoomUse,
): Promise<{ seals: { sealId: string; needsApproval: boolean; latest: ApprovalDetail | null }[] }> {
  const usable = await sealsUsableBy(deps, { userId: use.userId, companyId: use.companyId, personal: false });
  const out: { sealId: string; needsApproval: boolean; latest: ApprovalDetail | null }[] = [];
  for (const s of usable) {
    const policy = await q.findPolicy(deps.db, use.companyId, s.id);
    const applies = policyApplies(policy, use.flow);
    const found = applies
      ? await usableApproval(deps, {
          companyId: use.companyId,
          sealId: s.id,
          flowId: use.flow.id,
          partyId: use.party.id,
          documents: use.documents,
        })
      : { latest: (await q.approvalsOfPartySeal(deps.db, use.party.id, s.id))[0] };
    out.push({
      sealId: s.id,
      needsApproval: applies && !found.usable,
      latest: found.latest ? await presentOne(deps, found.latest, use.userId) : null,
    });
  }
  return { seals: out };
}

// ---------------------------------------------------------------------------------------------------------
// Approvers

/** The request, for its approvers, its requester and the administrator of the seal's company; else 1101. */
async function readable(deps: AppDeps, actor: Actor, approvalId: string): Promise<q.ApprovalRow> {
  const row = await q.approvalById(deps.db, approvalId);
  if (!row) throw notFound();
  if (actor.companyId !== null && actor.companyId !== row.companyId) throw notFound();
  const roles = await memberRoles(deps, row.companyId, actor.userId);
  const isParticipant = row.requesterUserId === actor.userId || row.approverIds.includes(actor.userId);
  if (roles.length === 0 && !(await isActiveMember(deps, row.companyId, actor.userId))) throw notFound();
  if (!isParticipant && !roles.includes('admin')) throw notFound();
  return row;
}

const isActiveMember = async (deps: AppDeps, companyId: string, userId: string) =>
  (await listActiveMembers(deps, companyId)).some((m) => m.userId === userId);

export async function getApproval(deps: AppDeps, actor: Actor, approvalId: string): Promise<ApprovalDetail> {
  return presentOne(deps, await readable(deps, actor, approvalId), actor.userId);
}

/** listApprovals: toMe (the caller is an approver of), mine (the caller asked), all (administrator). */
export async function listApprovals(
  deps: AppDeps,
  actor: Actor,
  v: { scope: 'toMe' | 'mine' | 'all'; status?: ApprovalStatus; pageNum: number; pageSize: number },
) {
  const access = await requireCompanyRole(deps, actor, v.scope === 'all' ? ['admin'] : ['admin', 'operator']);
  const scope: q.ListScope = v.scope === 'all' ? { kind: 'all' } : { kind: v.scope, userId: access.userId };
  const { rows, total } = await q.listApprovals(deps.db, access.companyId, {
    scope,
    status: v.status,
    now: deps.clock.now(),
    offset: (v.pageNum - 1) * v.pageSize,
    limit: v.pageSize,
  });
  return {
    list: (await presentAll(deps, rows, access.userId)).map((p) => p.summary),
    total,
    pageNum: v.pageNum,
    pageSize: v.pageSize,
  };
}

/**
 * decideApproval: under the request's row lock, so two approvers at once give one outcome. `one`: the first
 * approval approves; `all_*`: every approver approves; any rejection (with a comment) rejects; `all_in_order`:
 * only the next approver in order decides. Approved: usable for the policy's valid hours from now.
 */
export async function decideApproval(
  deps: AppDeps,
  actor: Actor,
  v: { approvalId: string; decision: 'approve' | 'reject'; comment?: string },
): Promise<ApprovalDetail> {
  const before = await readable(deps, actor, v.approvalId);
  const userId = actor.userId;
  if (!before.approverIds.includes(userId)) throw noPermission();
  const comment = v.comment?.trim() || null;
  if (v.decision === 'reject' && !comment) throw new AppError(Code.Refused, A.commentRequired);
  // A revoked role or membership takes effect on the next decision.
  if (!(await hasMemberRole(deps, before.companyId, userId, 'approver')))
    throw noPermission(A.lostApproverRole);
  const seal = before.sealId ? await companySealInfo(deps, before.companyId, before.sealId) : undefined;
  const auditActor = await auditActorOf(deps, before.companyId, userId);
  const now = deps.clock.now();
  let refusal: AppError | undefined;
  let outcome: { row: q.ApprovalRow; nowWaiting: string[]; isFinal: boolean } | undefined;
  const afterCommit = await deps.db.transaction(async (tx) => {
    const row = await q.lockApproval(tx, v.approvalId);
    if (!row) throw notFound();
    const status = effectiveStatus(row, now);
    if (status !== 'pending') {
      // A request that lapsed is stored as expired (this transaction commits; the refusal follows).
      if (status !== row.status) await q.setStatus(tx, row.id, { status, from: [row.status], now });
      refusal = new AppError(Code.Refused, A.notDecidable(status), { data: { status } });
      return null;
    }
    const decisions = await q.decisionsOf(tx, [row.id]);
    if (decisions.some((d) => d.approverUserId === userId))
      throw new AppError(Code.Refused, A.alreadyDecided, { data: { status } });
    if (!row.allowSelfApproval && row.requesterUserId === userId)
      throw new AppError(Code.Refused, A.ownRequest, { status: HttpStatus.NoPermission });
    if (!canDecide(row, decisions, userId, now)) throw new AppError(Code.Refused, A.notYourTurn);
    const mine: q.DecisionRow = {
      approvalId: row.id,
      approverUserId: userId,
      decision: v.decision,
      comment,
      at: now,
    };
    await q.insertDecision(tx, mine);
    const all = [...decisions, mine];
    const isApproved =
      v.decision === 'approve' &&
      (row.mode === 'one' ||
        row.approverIds.every((a) => all.some((d) => d.approverUserId === a && d.decision === 'approve')));
    const next: q.ApprovalStatus = v.decision === 'reject' ? 'rejected' : isApproved ? 'approved' : 'pending';
    if (next !== 'pending') {
      const expiresAt = next === 'approved' ? new Date(now.getTime() + row.validHours * HOUR_MS) : undefined;
      await q.setStatus(tx, row.id, { status: next, from: ['pending'], now, expiresAt });
      row.status = next;
      row.decidedAt = now;
      if (expiresAt) row.expiresAt = expiresAt;
    }
    await auditOnDocuments(tx, row, {
      ...auditActor,
      event: 'approval_decided',
      detail: `approval ${row.id} · ${v.decision}${comment ? ` · ${comment}` : ''}`.slice(0, 600),
      at: now,
    });
    await recordCompanyEvent(tx, {
      companyId: row.companyId,
      kind: 'approval_decided',
      actorUserId: userId,
      subjectUserId: row.requesterUserId,
      detail: {
        approvalId: row.id,
        kind: row.kind,
        ...(row.sealId ? { sealId: row.sealId } : {}),
        decision: v.decision,
        comment,
        status: row.status,
      },
      now,
    });
    // A launch request's outcome sends or cancels its held flow, in this transaction (flow answers).
    const flowAfter =
      row.kind === 'launch' && next !== 'pending'
        ? await deps.hooks.collect(launchDecided, {
            deps,
            tx,
            flowId: row.flowId,
            approvalId: row.id,
            approved: next === 'approved',
            comment,
            actor: auditActor,
          })
        : [];
    outcome = {
      row,
      nowWaiting: next === 'pending' ? waitingFor(row, all, now) : [],
      isFinal: next !== 'pending',
    };
    const eventAfter = await storeEvent(deps, tx, 'approval.decided', row, seal?.name ?? '', {
      userId,
      decision: v.decision,
      comment,
    });
    return async () => {
      for (const run of flowAfter) if (run) await run();
      await eventAfter();
    };
  });
  if (refusal) throw refusal;
  if (!outcome) throw notFound();
  await afterCommit?.();
  const sealName = seal?.name ?? '';
  if (outcome.isFinal) await tellRequester(deps, outcome.row, sealName, comment);
  else await tellApprovers(deps, outcome.row, outcome.nowWaiting, sealName);
  return presentOne(deps, outcome.row, userId);
}

/**
 * GET approvalDocument: the bound version's bytes, for the request's approvers, its requester and the
 * administrator (a session), or the requester's signing room (`roomToken`); others 404.
 */
export async function approvalDocumentBytes(
  deps: AppDeps,
  who: { actor: Actor } | { roomToken: string },
  approvalId: string,
  documentId: string,
): Promise<{ bytes: Uint8Array; filename: string }> {
  let row: q.ApprovalRow | undefined;
  if ('actor' in who) row = await readable(deps, who.actor, approvalId);
  else {
    const [userId] = await deps.hooks.collect(roomTokenUser, { deps, roomToken: who.roomToken });
    row = await q.approvalById(deps.db, approvalId);
    if (!row || !userId || row.requesterUserId !== userId) throw notFound();
  }
  const bound = row.documents.find((d) => d.documentId === documentId);
  if (!bound) throw notFound();
  const doc = await findDocument(deps.db, documentId);
  if (!doc || doc.flowId !== row.flowId) throw notFound();
  return { bytes: await blobBytes(deps, bound.blobKey), filename: bound.name };
}

// ---------------------------------------------------------------------------------------------------------
// Launch approval (发起审批): the company's launch rule, and the request that holds a handler's flow

/** Who may read the launch rule: the administrator and the company's approvers. */
async function requireLaunchRuleReader(deps: AppDeps, actor: Actor) {
  const access = await requireCompanyRole(deps, actor, ['admin', 'approver']);
  return access.companyId;
}

export async function getLaunchPolicy(deps: AppDeps, actor: Actor): Promise<LaunchPolicy> {
  const companyId = await requireLaunchRuleReader(deps, actor);
  return presentRule(deps, companyId, await q.findLaunchPolicy(deps.db, companyId));
}

/**
 * Sets the company's launch rule (the administrator). Requests already waiting keep the approvers they were
 * made with (voiding them would leave their flows held for nobody); the change goes into the company's trail.
 */
export async function saveLaunchPolicy(deps: AppDeps, actor: Actor, v: RuleInput): Promise<LaunchPolicy> {
  const access = await requireCompanyRole(deps, actor, ['admin']);
  const row = await checkedRule(deps, access.companyId, v);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await q.upsertLaunchPolicy(tx, { ...row, updatedBy: access.userId, now });
    await recordCompanyEvent(tx, {
      companyId: access.companyId,
      kind: 'launch_policy_changed',
      actorUserId: access.userId,
      detail: ruleDetail(v),
      now,
    });
  });
  return presentRule(deps, access.companyId, await q.findLaunchPolicy(deps.db, access.companyId));
}

/** A launch as the launch rule looks at it. */
export type LaunchOfFlow = FlowOfUse & {
  companyId: string;
  userId: string;
  /** An API key of the company launches: it acts for the company, not a person, and is treated as a handler. */
  isApiKey: boolean;
};

/**
 * Before a company's flow is stored (flow's launch): the launch rule when it holds this launch, else null. The
 * administrator's own launches are never held (they set the rule); a handler's (any other member) and an API
 * key's are, when the rule applies (amount at least the minimum, or no amount; template among those listed).
 * Refused now when nobody could approve it (approvers without the role, or only the launcher, self-approval off).
 */
export async function launchRuleFor(deps: AppDeps, launch: LaunchOfFlow): Promise<q.RuleRow | null> {
  const policy = await q.findLaunchPolicy(deps.db, launch.companyId);
  if (!policyApplies(policy, launch)) return null;
  if (!launch.isApiKey && (await hasMemberRole(deps, launch.companyId, launch.userId, 'admin'))) return null;
  await requireMeetable(deps, policy, launch.userId, {
    cannotBeMet: A.launchPolicyCannotBeMet,
    ownOnly: A.launchOwnRequestOnly,
  });
  return policy;
}

/** The held flow as flow stores it: what a launch request binds and shows. */
export type HeldLaunch = {
  rule: q.RuleRow;
  companyId: string;
  requesterUserId: string;
  flow: Omit<q.FlowFacts, 'partyStep' | 'parties'> & { id: string };
  parties: NonNullable<q.FlowFacts['parties']>;
  /** The flow's deadline: the request waits until then (the flow's expiry voids it). */
  deadline: Date;
  /** Every document of the flow as launched (the versions the request binds). */
  documents: q.BoundDocument[];
  auditActor: AuditActor;
};

/**
 * In the launch's transaction (`tx`): the launch request of the held flow, its audit entries, the company's
 * trail and its webhook event. Answers what to do after the commit: the webhooks, then the approvers told.
 */
export async function requestLaunchApproval(
  deps: AppDeps,
  tx: Exec,
  held: HeldLaunch,
): Promise<() => Promise<void>> {
  const now = deps.clock.now();
  const { rule } = held;
  const row: q.ApprovalRow = {
    id: randomUUID(),
    kind: 'launch',
    companyId: held.companyId,
    sealId: null,
    flowId: held.flow.id,
    partyId: null,
    requesterUserId: held.requesterUserId,
    mode: rule.mode as q.RequestMode,
    approverIds: rule.approverIds,
    allowSelfApproval: rule.allowSelfApproval,
    validHours: rule.validHours,
    documents: held.documents,
    flowFacts: {
      title: held.flow.title,
      amountFen: held.flow.amountFen,
      partyStep: 0,
      initiatorUserId: held.flow.initiatorUserId,
      initiatorCompanyName: held.flow.initiatorCompanyName,
      parties: held.parties,
    },
    status: 'pending',
    createdAt: now,
    // A held flow waits for its approvers until its own deadline (then it expires and voids the request).
    expiresAt: held.deadline,
    decidedAt: null,
    usedAt: null,
    voidReason: null,
  };
  const eventAfter = await storeRequestIn(deps, tx, row, held.auditActor, '');
  return async () => {
    await eventAfter();
    await tellApprovers(deps, row, waitingFor(row, [], now), '');
  };
}
