// Every SQL statement on the approval module's tables (migrations 153, 156): `seal_policies` (one row per company
// seal whose policy was ever set), `launch_policies` (one row per company whose launch rule was ever set),
// `seal_approvals` (a handler's request: kind `seal` bound to one party, one seal and the document versions asked
// for; kind `launch` bound to a held flow and its documents at launch) and `seal_approval_decisions` (one row per
// approver who decided).
import { type SQL, sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, dateOf, jsonOf, ts } from '../../db/sql-helpers.ts';

export type PolicyMode = 'none' | 'one' | 'all_in_order' | 'all_any_order';
export type RequestMode = Exclude<PolicyMode, 'none'>;

/** A rule (a seal's policy or the company's launch rule). */
export type RuleRow = {
  companyId: string;
  mode: PolicyMode;
  approverIds: string[];
  minAmountFen: number | null;
  templateIds: string[] | null;
  allowSelfApproval: boolean;
  validHours: number;
  updatedBy: string | null;
  updatedAt: Date;
};

export type PolicyRow = RuleRow & { sealId: string };

/** A document version an approval is bound to. */
export type BoundDocument = {
  documentId: string;
  version: number;
  sha256: string;
  blobKey: string;
  name: string;
  pages: number;
};

/** What the approver is shown of the flow, as it was when the request was made. */
export type FlowFacts = {
  title: string;
  amountFen: number | null;
  partyStep: number;
  initiatorUserId: string;
  initiatorCompanyName: string | null;
  /** A launch request: the flow's parties as launched. */
  parties?: { step: number; kind: 'person' | 'company'; name: string | null; companyName: string | null }[];
};

export type ApprovalKind = 'seal' | 'launch';

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'void' | 'used';

export type ApprovalRow = {
  id: string;
  kind: ApprovalKind;
  companyId: string;
  /** A seal request's seal and party; null for a launch request. */
  sealId: string | null;
  flowId: string;
  partyId: string | null;
  requesterUserId: string;
  mode: RequestMode;
  approverIds: string[];
  allowSelfApproval: boolean;
  validHours: number;
  documents: BoundDocument[];
  flowFacts: FlowFacts;
  status: ApprovalStatus;
  createdAt: Date;
  expiresAt: Date;
  decidedAt: Date | null;
  usedAt: Date | null;
  voidReason: string | null;
};

export type DecisionRow = {
  approvalId: string;
  approverUserId: string;
  decision: 'approve' | 'reject';
  comment: string | null;
  at: Date;
};

/** A uuid[] parameter (drizzle would spread a JS array into a list). */
const uuidArray = (ids: readonly string[]) => sql`string_to_array(${ids.join(',')}, ',')::uuid[]`;

/** A rule's columns as read (seal_policies and launch_policies share them). */
const RULE_COLUMNS = sql`mode, to_jsonb(approver_ids) AS approver_ids, min_amount_fen,
  to_jsonb(template_ids) AS template_ids, allow_self_approval, valid_hours, updated_by, updated_at`;
const POLICY_COLUMNS = sql`seal_id, company_id, ${RULE_COLUMNS}`;
const LAUNCH_POLICY_COLUMNS = sql`company_id, ${RULE_COLUMNS}`;

const policyOf = <P extends RuleRow>(r: P): P => ({
  ...r,
  approverIds: jsonOf<string[]>(r.approverIds),
  templateIds: r.templateIds === null ? null : jsonOf<string[]>(r.templateIds),
  minAmountFen: r.minAmountFen === null ? null : Number(r.minAmountFen),
  updatedAt: dateOf(r.updatedAt),
});

export async function findPolicy(
  ex: Exec,
  companyId: string,
  sealId: string,
): Promise<PolicyRow | undefined> {
  const r = await camelOne<PolicyRow>(
    ex,
    sql`SELECT ${POLICY_COLUMNS} FROM seal_policies WHERE company_id = ${companyId} AND seal_id = ${sealId}`,
  );
  return r && policyOf(r);
}

type RuleWrite = Omit<RuleRow, 'updatedAt' | 'updatedBy'> & { updatedBy: string; now: Date };

/** A rule's columns and values as written, and the update of a rule set before. */
const RULE_WRITE_COLUMNS = sql`mode, approver_ids, min_amount_fen, template_ids, allow_self_approval, valid_hours,
  updated_by, updated_at`;
const ruleValues = (p: RuleWrite) => sql`${p.mode}, ${uuidArray(p.approverIds)}, ${p.minAmountFen},
  ${p.templateIds === null ? null : uuidArray(p.templateIds)}, ${p.allowSelfApproval}, ${p.validHours},
  ${p.updatedBy}, ${ts(p.now)}`;
const RULE_UPDATE = sql`mode = EXCLUDED.mode, approver_ids = EXCLUDED.approver_ids,
  min_amount_fen = EXCLUDED.min_amount_fen, template_ids = EXCLUDED.template_ids,
  allow_self_approval = EXCLUDED.allow_self_approval, valid_hours = EXCLUDED.valid_hours,
  updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`;

export async function upsertPolicy(ex: Exec, p: RuleWrite & { sealId: string }): Promise<void> {
  await ex.execute(sql`
    INSERT INTO seal_policies (seal_id, company_id, ${RULE_WRITE_COLUMNS})
    VALUES (${p.sealId}, ${p.companyId}, ${ruleValues(p)})
    ON CONFLICT (seal_id) DO UPDATE SET ${RULE_UPDATE}`);
}

/** The company's launch rule, if it was ever set. */
export async function findLaunchPolicy(ex: Exec, companyId: string): Promise<RuleRow | undefined> {
  const r = await camelOne<RuleRow>(
    ex,
    sql`SELECT ${LAUNCH_POLICY_COLUMNS} FROM launch_policies WHERE company_id = ${companyId}`,
  );
  return r && policyOf(r);
}

export async function upsertLaunchPolicy(ex: Exec, p: RuleWrite): Promise<void> {
  await ex.execute(sql`
    INSERT INTO launch_policies (company_id, ${RULE_WRITE_COLUMNS})
    VALUES (${p.companyId}, ${ruleValues(p)})
    ON CONFLICT (company_id) DO UPDATE SET ${RULE_UPDATE}`);
}

const APPROVAL_COLUMNS = sql`id, kind, company_id, seal_id, flow_id, party_id, requester_user_id, mode,
  to_jsonb(approver_ids) AS approver_ids, allow_self_approval, valid_hours, documents, flow_facts, status,
  created_at, expires_at, decided_at, used_at, void_reason`;

const approvalOf = (r: ApprovalRow): ApprovalRow => ({
  ...r,
  approverIds: jsonOf<string[]>(r.approverIds),
  documents: jsonOf<BoundDocument[]>(r.documents),
  flowFacts: jsonOf<FlowFacts>(r.flowFacts),
  createdAt: dateOf(r.createdAt),
  expiresAt: dateOf(r.expiresAt),
  decidedAt: r.decidedAt === null ? null : dateOf(r.decidedAt),
  usedAt: r.usedAt === null ? null : dateOf(r.usedAt),
});

async function approvals(ex: Exec, where: SQL, tail: SQL = sql``): Promise<ApprovalRow[]> {
  return (
    await camelRows<ApprovalRow>(
      ex,
      sql`SELECT ${APPROVAL_COLUMNS} FROM seal_approvals WHERE ${where} ${tail}`,
    )
  ).map(approvalOf);
}

export async function insertApproval(
  ex: Exec,
  a: Omit<ApprovalRow, 'decidedAt' | 'usedAt' | 'voidReason' | 'status'>,
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO seal_approvals (id, kind, company_id, seal_id, flow_id, party_id, requester_user_id, mode,
      approver_ids, allow_self_approval, valid_hours, documents, flow_facts, status, created_at, expires_at)
    VALUES (${a.id}, ${a.kind}, ${a.companyId}, ${a.sealId}, ${a.flowId}, ${a.partyId}, ${a.requesterUserId}, ${a.mode},
      ${uuidArray(a.approverIds)}, ${a.allowSelfApproval}, ${a.validHours}, ${JSON.stringify(a.documents)}::jsonb,
      ${JSON.stringify(a.flowFacts)}::jsonb, 'pending', ${ts(a.createdAt)}, ${ts(a.expiresAt)})`);
}

/** The approval of this company (another company's is undefined). */
export async function findApproval(
  ex: Exec,
  companyId: string,
  id: string,
): Promise<ApprovalRow | undefined> {
  return (await approvals(ex, sql`company_id = ${companyId} AND id = ${id}`))[0];
}

/** The approval by id alone (the caller scopes it). */
export async function approvalById(ex: Exec, id: string): Promise<ApprovalRow | undefined> {
  return (await approvals(ex, sql`id = ${id}`))[0];
}

/** Holds the approval row for the rest of the transaction (decisions one at a time). */
export async function lockApproval(ex: Exec, id: string): Promise<ApprovalRow | undefined> {
  return (await approvals(ex, sql`id = ${id}`, sql`FOR UPDATE`))[0];
}

/** The party's requests for the seal, newest first. */
export async function approvalsOfPartySeal(
  ex: Exec,
  partyId: string,
  sealId: string,
): Promise<ApprovalRow[]> {
  return approvals(
    ex,
    sql`party_id = ${partyId} AND seal_id = ${sealId}`,
    sql`ORDER BY created_at DESC LIMIT 20`,
  );
}

export async function setStatus(
  ex: Exec,
  id: string,
  v: {
    status: ApprovalStatus;
    from: readonly ApprovalStatus[];
    now: Date;
    expiresAt?: Date;
    voidReason?: string;
  },
): Promise<boolean> {
  const done = await camelRows<{ id: string }>(
    ex,
    sql`UPDATE seal_approvals SET status = ${v.status},
          decided_at = CASE WHEN ${v.status} IN ('approved', 'rejected') THEN ${ts(v.now)}::timestamptz ELSE decided_at END,
          expires_at = COALESCE(${v.expiresAt ? ts(v.expiresAt) : null}::timestamptz, expires_at),
          void_reason = COALESCE(${v.voidReason ?? null}, void_reason)
        WHERE id = ${id} AND status IN (${sql.join(
          v.from.map((s) => sql`${s}`),
          sql`, `,
        )}) RETURNING id`,
  );
  return done.length === 1;
}

export type Voided = { id: string; flowId: string; documents: BoundDocument[] };

/** Voids the open (pending or approved) requests matching `where`; answers the voided rows. */
async function voidOpen(ex: Exec, where: SQL, reason: string): Promise<Voided[]> {
  const done = await camelRows<Voided>(
    ex,
    sql`UPDATE seal_approvals SET status = 'void', void_reason = ${reason}
        WHERE ${where} AND status IN ('pending', 'approved') RETURNING id, flow_id, documents`,
  );
  return done.map((v) => ({ ...v, documents: jsonOf<BoundDocument[]>(v.documents) }));
}

/** The documents bound by the seal's open (pending or approved) requests. */
export async function openDocumentsOfSeal(ex: Exec, companyId: string, sealId: string): Promise<string[]> {
  const found = await camelRows<{ documentId: string }>(
    ex,
    sql`SELECT DISTINCT d->>'documentId' AS document_id FROM seal_approvals, jsonb_array_elements(documents) d
        WHERE company_id = ${companyId} AND seal_id = ${sealId} AND status IN ('pending', 'approved')`,
  );
  return found.map((r) => r.documentId);
}

export const voidOpenOfSeal = (ex: Exec, companyId: string, sealId: string, reason: string) =>
  voidOpen(ex, sql`company_id = ${companyId} AND seal_id = ${sealId}`, reason);

export const voidOpenOfFlow = (ex: Exec, flowId: string, reason: string) =>
  voidOpen(ex, sql`flow_id = ${flowId}`, reason);

export const voidOne = (ex: Exec, id: string, reason: string) => voidOpen(ex, sql`id = ${id}`, reason);

/**
 * Marks the approvals used by the signature stored in this transaction (an approval stays `used` across the
 * party's documents, each signed in a transaction of its own). Answers how many are approved or used now.
 */
export async function markUsed(ex: Exec, ids: readonly string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const done = await camelRows<{ id: string }>(
    ex,
    sql`UPDATE seal_approvals SET status = 'used', used_at = COALESCE(used_at, ${ts(now)}::timestamptz)
        WHERE id = ANY(${uuidArray(ids)}) AND status IN ('approved', 'used') RETURNING id`,
  );
  return done.length;
}

export type ListScope = { kind: 'toMe'; userId: string } | { kind: 'mine'; userId: string } | { kind: 'all' };

const scopeSql = (
  companyId: string,
  scope: ListScope,
  status: ApprovalStatus | undefined,
  now: Date,
): SQL => {
  const conds: SQL[] = [sql`company_id = ${companyId}`];
  if (scope.kind === 'toMe') conds.push(sql`${scope.userId}::uuid = ANY(approver_ids)`);
  if (scope.kind === 'mine') conds.push(sql`requester_user_id = ${scope.userId}`);
  // A pending or approved request past its time reads as expired (it is stored so when next touched).
  // An approved launch request has been used to send its flow: it does not expire.
  const lapsed = sql`expires_at <= ${ts(now)}::timestamptz AND NOT (kind = 'launch' AND status = 'approved')`;
  if (status === 'expired')
    conds.push(sql`(status = 'expired' OR (status IN ('pending', 'approved') AND ${lapsed}))`);
  else if (status === 'pending' || status === 'approved')
    conds.push(sql`status = ${status} AND NOT (${lapsed})`);
  else if (status) conds.push(sql`status = ${status}`);
  return sql.join(conds, sql` AND `);
};

export async function listApprovals(
  ex: Exec,
  companyId: string,
  v: { scope: ListScope; status?: ApprovalStatus; now: Date; offset: number; limit: number },
): Promise<{ rows: ApprovalRow[]; total: number }> {
  const where = scopeSql(companyId, v.scope, v.status, v.now);
  // To an approver, the ones still waiting come first.
  const order =
    v.scope.kind === 'toMe'
      ? sql`ORDER BY (status = 'pending' AND expires_at > ${ts(v.now)}::timestamptz) DESC, created_at DESC`
      : sql`ORDER BY created_at DESC`;
  const rows = await approvals(ex, where, sql`${order} OFFSET ${v.offset} LIMIT ${v.limit}`);
  const total = await camelOne<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM seal_approvals WHERE ${where}`,
  );
  return { rows, total: total?.n ?? 0 };
}

export async function insertDecision(ex: Exec, d: DecisionRow): Promise<void> {
  await ex.execute(sql`
    INSERT INTO seal_approval_decisions (approval_id, approver_user_id, decision, comment, at)
    VALUES (${d.approvalId}, ${d.approverUserId}, ${d.decision}, ${d.comment}, ${ts(d.at)})`);
}

/** The decisions of these approvals, in the order they were made. */
export async function decisionsOf(ex: Exec, approvalIds: readonly string[]): Promise<DecisionRow[]> {
  if (approvalIds.length === 0) return [];
  return (
    await camelRows<DecisionRow>(
      ex,
      sql`SELECT approval_id, approver_user_id, decision, comment, at FROM seal_approval_decisions
          WHERE approval_id = ANY(${uuidArray(approvalIds)}) ORDER BY at, approver_user_id`,
    )
  ).map((d) => ({ ...d, at: dateOf(d.at) }));
}

/**
 * A member's hand-over (company's memberHandover): `from` as an approver becomes `to` in the company's seal rules
 * and in its requests still waiting (where `to` is named already, `from` is only taken out). A dry run only counts.
 */
export async function handOverApprover(
  tx: Exec,
  v: { companyId: string; fromUserId: string; toUserId: string; dryRun: boolean },
): Promise<{ approvalRules: number; approvalRequests: number }> {
  const swap = sql`CASE WHEN ${v.toUserId}::uuid = ANY(approver_ids)
      THEN array_remove(approver_ids, ${v.fromUserId}::uuid)
      ELSE array_replace(approver_ids, ${v.fromUserId}::uuid, ${v.toUserId}::uuid) END`;
  if (v.dryRun) {
    const n = await camelOne<{ rules: number; requests: number }>(
      tx,
      sql`SELECT
            (SELECT count(*)::int FROM seal_policies
              WHERE company_id = ${v.companyId} AND ${v.fromUserId}::uuid = ANY(approver_ids))
            + (SELECT count(*)::int FROM launch_policies
              WHERE company_id = ${v.companyId} AND ${v.fromUserId}::uuid = ANY(approver_ids)) AS rules,
            (SELECT count(*)::int FROM seal_approvals
              WHERE company_id = ${v.companyId} AND status = 'pending'
                AND ${v.fromUserId}::uuid = ANY(approver_ids)) AS requests`,
    );
    return { approvalRules: n?.rules ?? 0, approvalRequests: n?.requests ?? 0 };
  }
  const rules = await camelRows<{ sealId: string }>(
    tx,
    sql`UPDATE seal_policies SET approver_ids = ${swap}
        WHERE company_id = ${v.companyId} AND ${v.fromUserId}::uuid = ANY(approver_ids) RETURNING seal_id`,
  );
  const launchRules = await camelRows<{ companyId: string }>(
    tx,
    sql`UPDATE launch_policies SET approver_ids = ${swap}
        WHERE company_id = ${v.companyId} AND ${v.fromUserId}::uuid = ANY(approver_ids) RETURNING company_id`,
  );
  const requests = await camelRows<{ id: string }>(
    tx,
    sql`UPDATE seal_approvals SET approver_ids = ${swap}
        WHERE company_id = ${v.companyId} AND status = 'pending' AND ${v.fromUserId}::uuid = ANY(approver_ids)
        RETURNING id`,
  );
  return { approvalRules: rules.length + launchRules.length, approvalRequests: requests.length };
}
