// Every SQL statement on the flow module's tables: `flows`, `flow_parties`, `party_links`,
// `party_signatures`, `room_tokens`, `flow_messages` (migration 060, columns added by 111 and 118) and
// `signing_passwords` (118). Nothing else in the module, and nothing outside it, runs SQL on them.
// Raw SQL (drizzle's sql template); conditional UPDATEs with RETURNING carry the module's concurrency rules
// (one winner). Rows come back camelCase (camelRows/camelOne) as the types below: nothing outside this file
// reads a column's snake_case name.
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, likePattern, one, rows, ts } from '../../db/sql-helpers.ts';

/** A signing flow (a row of `flows`). Timestamps as the driver gives them: read them with dateOf. */
export type Flow = {
  id: string;
  ownerType: number;
  ownerId: string;
  initiatorUserId: string;
  initiatorName: string | null;
  initiatorCompanyName: string | null;
  title: string;
  message: string | null;
  isQuick: boolean;
  status: string;
  currentStep: number;
  stepCount: number;
  deadline: unknown;
  searchText: string;
  quotaState: string;
  createdAt: unknown;
  completedAt: unknown;
  endedAt: unknown;
  endReason: string | null;
  reportKey: string | null;
  reportSha256: string | null;
  /** Reminders every N days, chosen at launch (migration 120); null: none. */
  remindEveryDays?: number | null;
  nextRemindAt?: unknown;
  deadlineNoticeAt?: unknown;
  /** The template it was launched from (migration 151); null for uploaded documents. */
  templateId?: string | null;
  /** The API key that launched it (migration 151); null when launched in the workspace. */
  apiKeyId?: string | null;
  /** The contract's amount in fen, when the launcher stated one (migration 151). */
  amountFen?: string | number | null;
  /** Waiting for its launch approval (migration 156): stored, no links sent yet. */
  heldForApproval?: boolean;
  /** Void by agreement (issue 29, migration 165): the contract this rescission agreement rescinds. */
  rescindsFlowId?: string | null;
  /** When a rescission agreement of this contract completed, and which. */
  voidedAt?: unknown;
  voidedByFlowId?: string | null;
  /** The current revision of its documents (migration 160): 1 at launch. */
  revision?: number;
};

/** One signer of a flow's step: a person, or a company through the phone that receives its link. */
export type Party = {
  id: string;
  flowId: string;
  stepIndex: number;
  ord: number;
  kind: 'person' | 'company';
  name: string | null;
  phone: string;
  companyId: string | null;
  companyName: string | null;
  applies: unknown;
  positions: unknown;
  status: string;
  linkType: number;
  signedAt: unknown;
  signedByUser: string | null;
  signedByName: string | null;
  declinedAt: unknown;
  declineReason: string | null;
  lastRemindedAt: unknown;
  sentAt: unknown;
  openedAt: unknown;
  onboardingAt: unknown;
  onboardingProblem: unknown;
  /** The intent check chosen at launch (migration 118): sms, face or password. */
  intent?: string;
  /** The launch's positions as given (migration 162): {positions, fields: [{key, position}]}; null before. */
  placement?: unknown;
};

// ---------------------------------------------------------------------------------------------------------
// flows

export async function findFlow(ex: Exec, id: string): Promise<Flow | undefined> {
  return camelOne<Flow>(ex, sql`SELECT * FROM flows WHERE id = ${id}`);
}

/** The flow row, locked for the rest of the transaction. */
export async function lockFlow(ex: Exec, id: string): Promise<Flow | undefined> {
  return camelOne<Flow>(ex, sql`SELECT * FROM flows WHERE id = ${id} FOR UPDATE`);
}

export async function insertFlow(
  ex: Exec,
  f: {
    id: string;
    account: { ownerType: 0 | 1; ownerId: string };
    initiatorUserId: string;
    initiatorName: string | null;
    initiatorCompanyName: string | null;
    title: string;
    message: string | null;
    isQuick: boolean;
    stepCount: number;
    deadline: Date;
    searchText: string;
    now: Date;
    remindEveryDays: number | null;
    templateId: string | null;
    apiKeyId: string | null;
    amountFen: number | null;
    /** Held for launch approval (issue 27): no links until approved. */
    heldForApproval: boolean;
  },
): Promise<void> {
  const nextRemind = f.remindEveryDays ? new Date(f.now.getTime() + f.remindEveryDays * 86_400_000) : null;
  await ex.execute(sql`
    INSERT INTO flows (id, owner_type, owner_id, initiator_user_id, initiator_name, initiator_company_name, title,
      message, is_quick, status, current_step, step_count, deadline, search_text, quota_state, created_at,
      remind_every_days, next_remind_at, template_id, api_key_id, amount_fen, held_for_approval)
    VALUES (${f.id}, ${f.account.ownerType}, ${f.account.ownerId}, ${f.initiatorUserId}, ${f.initiatorName},
      ${f.initiatorCompanyName}, ${f.title}, ${f.message}, ${f.isQuick}, 'signing', 0,
      ${f.stepCount}, ${ts(f.deadline)}, ${f.searchText}, 'reserved', ${ts(f.now)},
      ${f.remindEveryDays}, ${nextRemind ? ts(nextRemind) : null}, ${f.templateId}, ${f.apiKeyId},
      ${f.amountFen}, ${f.heldForApproval})`);
}

/** Lifts a held flow's hold (its launch was approved); the row when this caller lifted it, else undefined. */
export async function releaseHeldFlow(ex: Exec, flowId: string): Promise<Flow | undefined> {
  return camelOne<Flow>(
    ex,
    sql`UPDATE flows SET held_for_approval = false
        WHERE id = ${flowId} AND held_for_approval AND status = 'signing' RETURNING *`,
  );
}

/** Ends an open flow (only from 'signing', before its last signature); the row, or undefined when it was not open. */
export async function endOpenFlow(
  ex: Exec,
  flowId: string,
  end: { status: 'cancelled' | 'declined' | 'expired'; reason: string | null; now: Date },
): Promise<Flow | undefined> {
  return camelOne<Flow>(
    ex,
    sql`UPDATE flows SET status = ${end.status}, ended_at = ${ts(end.now)}, end_reason = ${end.reason},
          quota_state = 'released'
        WHERE id = ${flowId} AND status = 'signing' AND current_step < step_count RETURNING *`,
  );
}

/** Completes a signing flow; the row, or undefined when another caller completed it first. */
export async function markCompleted(ex: Exec, flowId: string, now: Date): Promise<Flow | undefined> {
  return camelOne<Flow>(
    ex,
    sql`UPDATE flows SET status = 'completed', completed_at = ${ts(now)}, quota_state = 'used'
        WHERE id = ${flowId} AND status = 'signing' RETURNING *`,
  );
}

export async function setCurrentStep(ex: Exec, flowId: string, step: number): Promise<void> {
  await ex.execute(sql`UPDATE flows SET current_step = ${step} WHERE id = ${flowId}`);
}

/** Stores the audit report's blob key once; false when another process stored one first. */
export async function storeReportKey(ex: Exec, flowId: string, key: string): Promise<boolean> {
  const stored = await rows<{ id: string }>(
    ex,
    sql`UPDATE flows SET report_key = ${key}, report_sha256 = ${key} WHERE id = ${flowId} AND report_key IS NULL
        RETURNING id`,
  );
  return stored.length === 1;
}

/** Whether this open flow is past its deadline. */
export async function isDue(ex: Exec, flowId: string, now: Date): Promise<boolean> {
  const f = await one<{ id: string }>(
    ex,
    sql`SELECT id FROM flows WHERE id = ${flowId} AND status = 'signing' AND deadline <= ${ts(now)}`,
  );
  return f !== undefined;
}

/** Open flows past their deadline, the oldest deadline first (at most 200). */
export async function dueFlowIds(ex: Exec, now: Date): Promise<string[]> {
  const due = await rows<{ id: string }>(
    ex,
    sql`SELECT id FROM flows WHERE status = 'signing' AND deadline <= ${ts(now)} ORDER BY deadline LIMIT 200`,
  );
  return due.map((f) => f.id);
}

/** Open flows whose next reminder is due, the longest due first (at most 200). */
export async function dueReminderFlowIds(ex: Exec, now: Date): Promise<string[]> {
  const due = await rows<{ id: string }>(
    ex,
    sql`SELECT id FROM flows WHERE status = 'signing' AND NOT held_for_approval AND next_remind_at <= ${ts(now)}
        ORDER BY next_remind_at LIMIT 200`,
  );
  return due.map((f) => f.id);
}

/**
 * Claims a due reminder of an open flow: its next one moves to now + N days. The row when this caller won
 * (one instance sends each reminder), undefined when it was not due or not open any more.
 */
export async function claimFlowReminder(ex: Exec, flowId: string, now: Date): Promise<Flow | undefined> {
  return camelOne<Flow>(
    ex,
    sql`UPDATE flows SET next_remind_at = ${ts(now)}::timestamptz + remind_every_days * interval '1 day'
        WHERE id = ${flowId} AND status = 'signing' AND next_remind_at <= ${ts(now)} RETURNING *`,
  );
}

/**
 * Open flows whose "deadline approaching" notice is due: the deadline is less than `windowMs` away, the
 * notice has not gone out, and the flow was launched before that window began (a flow launched with a
 * deadline already that close was told its deadline in the invitation). The nearest deadline first (200).
 */
export async function dueDeadlineNoticeFlowIds(ex: Exec, now: Date, windowMs: number): Promise<string[]> {
  const windowStart = sql`deadline - ${windowMs} * interval '1 millisecond'`;
  const due = await rows<{ id: string }>(
    ex,
    sql`SELECT id FROM flows WHERE status = 'signing' AND NOT held_for_approval AND deadline_notice_at IS NULL
        AND deadline > ${ts(now)} AND ${windowStart} <= ${ts(now)} AND created_at < ${windowStart}
        ORDER BY deadline LIMIT 200`,
  );
  return due.map((f) => f.id);
}

/** Claims a flow's "deadline approaching" notice: the row when this caller won, else undefined. */
export async function claimDeadlineNotice(ex: Exec, flowId: string, now: Date): Promise<Flow | undefined> {
  return camelOne<Flow>(
    ex,
    sql`UPDATE flows SET deadline_notice_at = ${ts(now)}
        WHERE id = ${flowId} AND status = 'signing' AND deadline_notice_at IS NULL AND deadline > ${ts(now)}
        RETURNING *`,
  );
}

/** Completed flows whose audit report is not stored yet (at most 50). */
export async function reportlessFlowIds(ex: Exec): Promise<string[]> {
  const list = await rows<{ id: string }>(
    ex,
    sql`SELECT id FROM flows WHERE status = 'completed' AND report_key IS NULL ORDER BY completed_at LIMIT 50`,
  );
  return list.map((f) => f.id);
}

export async function straggleFlowIds(ex: Exec): Promise<string[]> {
  const list = await rows<{ id: string }>(
    ex,
    sql`SELECT f.id FROM flows f WHERE f.status = 'signing'
        AND NOT EXISTS (SELECT 1 FROM flow_parties p WHERE p.flow_id = f.id AND p.status <> 'signed') LIMIT 50`,
  );
  return list.map((f) => f.id);
}

export type ListFilters = {
  pageNum: number;
  pageSize: number;
  keyword?: string;
  dateFrom?: string;
  dateTo?: string;
  /** Flows launched from this template (batch signing, issue 28). */
  templateId?: string;
  /** The initiator's or the initiating company's name contains this (batch signing). */
  sender?: string;
};

function filterSql(f: ListFilters): SQL[] {
  const out: SQL[] = [];
  if (f.keyword) {
    out.push(sql`f.search_text LIKE ${likePattern(f.keyword)}`);
  }
  if (f.templateId) out.push(sql`f.template_id = ${f.templateId}`);
  if (f.sender) {
    const pattern = likePattern(f.sender);
    out.push(
      sql`(lower(coalesce(f.initiator_name, '')) LIKE ${pattern} OR lower(coalesce(f.initiator_company_name, '')) LIKE ${pattern})`,
    );
  }
  if (f.dateFrom) out.push(sql`f.created_at >= ${ts(new Date(f.dateFrom))}`);
  if (f.dateTo) out.push(sql`f.created_at < ${ts(new Date(f.dateTo))}`);
  return out;
}

/** A page of the flows an account launched, newest first, and how many there are. */
export async function launchedPage(
  ex: Exec,
  account: { ownerType: 0 | 1; ownerId: string },
  f: ListFilters & { status?: string },
): Promise<{ list: Flow[]; total: number }> {
  const conds = [
    sql`f.owner_type = ${account.ownerType}`,
    sql`f.owner_id = ${account.ownerId}`,
    ...filterSql(f),
  ];
  if (f.status) conds.push(sql`f.status = ${f.status}`);
  const where = sql.join(conds, sql` AND `);
  const total =
    (await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM flows f WHERE ${where}`))?.n ?? 0;
  const list = await camelRows<Flow>(
    ex,
    sql`SELECT f.* FROM flows f WHERE ${where} ORDER BY f.created_at DESC, f.id
        LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return { list, total };
}

/**
 * A page of the parties addressed to a signer, with their flows, newest first: person parties of a phone,
 * or company parties of a company (all of them, or only those sent to `phone` when given).
 */
export async function partyPage(
  ex: Exec,
  who: { kind: 'person'; phone: string } | { kind: 'company'; companyId: string; phone: string | null },
  f: ListFilters & { status?: string },
) {
  // A flow held for its launch approval is not sent yet: its parties do not see it.
  const conds: SQL[] = [
    sql`p.status = ${f.status ?? 'pending'}`,
    sql`NOT f.held_for_approval`,
    ...filterSql(f),
  ];
  if (who.kind === 'company') {
    conds.push(sql`p.kind = 'company'`, sql`p.company_id = ${who.companyId}`);
    if (who.phone !== null) conds.push(sql`p.phone = ${who.phone}`);
  } else {
    conds.push(sql`p.kind = 'person'`, sql`p.phone = ${who.phone}`);
  }
  const where = sql.join(conds, sql` AND `);
  const total =
    (
      await one<{ n: number }>(
        ex,
        sql`SELECT count(*)::int AS n FROM flow_parties p JOIN flows f ON f.id = p.flow_id WHERE ${where}`,
      )
    )?.n ?? 0;
  const list = await camelRows<
    Flow & {
      partyId: string;
      partyStatus: string;
      partyKind: 'person' | 'company';
      partyIntent: string | null;
      partyApplies: unknown;
      partyCompanyName: string | null;
      templateName: string | null;
    }
  >(
    ex,
    sql`SELECT f.*, p.id AS party_id, p.status AS party_status, p.kind AS party_kind, p.intent AS party_intent,
        p.applies AS party_applies, p.company_name AS party_company_name,
        (SELECT t.name FROM templates t WHERE t.id = f.template_id) AS template_name
        FROM flow_parties p JOIN flows f ON f.id = p.flow_id WHERE ${where}
        ORDER BY f.created_at DESC, p.id LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return { list, total };
}

// ---------------------------------------------------------------------------------------------------------
// flow_parties

export async function partiesOf(ex: Exec, flowId: string): Promise<Party[]> {
  return camelRows<Party>(
    ex,
    sql`SELECT * FROM flow_parties WHERE flow_id = ${flowId} ORDER BY step_index, ord`,
  );
}

export async function findParty(ex: Exec, id: string): Promise<Party | undefined> {
  return camelOne<Party>(ex, sql`SELECT * FROM flow_parties WHERE id = ${id}`);
}

export async function insertParty(
  ex: Exec,
  flowId: string,
  p: {
    id: string;
    stepIndex: number;
    ord: number;
    kind: 'person' | 'company';
    name: string | null;
    phone: string;
    companyId: string | null;
    companyName: string | null;
    applies: object;
    positions: unknown;
    linkType: number;
    intent: string;
    /** The positions and field positions as the launch gave them (a revision places them again). */
    placement?: object | null;
  },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO flow_parties (id, flow_id, step_index, ord, kind, name, phone, company_id, company_name, applies,
      positions, status, link_type, intent, placement)
    VALUES (${p.id}, ${flowId}, ${p.stepIndex}, ${p.ord}, ${p.kind}, ${p.name}, ${p.phone}, ${p.companyId},
      ${p.companyName}, ${JSON.stringify(p.applies)}::jsonb, ${JSON.stringify(p.positions)}::jsonb,
      ${p.stepIndex === 0 ? 'pending' : 'waiting'}, ${p.linkType}, ${p.intent},
      ${p.placement ? JSON.stringify(p.placement) : null}::jsonb)`);
}

/** Parties and signed parties per flow (lists). */
export async function partyCountsOf(
  ex: Exec,
  flowIds: string[],
): Promise<Map<string, { all: number; signed: number }>> {
  const out = new Map<string, { all: number; signed: number }>();
  if (flowIds.length === 0) return out;
  const list = await camelRows<{ flowId: string; all: number; signed: number }>(
    ex,
    sql`SELECT flow_id, count(*)::int AS all, (count(*) FILTER (WHERE status = 'signed'))::int AS signed
        FROM flow_parties WHERE flow_id IN (${sql.join(
          flowIds.map((id) => sql`${id}`),
          sql`, `,
        )}) GROUP BY flow_id`,
  );
  for (const r of list) out.set(r.flowId, { all: r.all, signed: r.signed });
  return out;
}

const MOMENT_COLUMNS = { sentAt: 'sent_at', openedAt: 'opened_at', onboardingAt: 'onboarding_at' } as const;

/** The first moment of a party's progress (sent, opened, onboarding): set once. */
export async function markPartyMoment(
  ex: Exec,
  partyId: string,
  moment: keyof typeof MOMENT_COLUMNS,
  now: Date,
): Promise<boolean> {
  const column = sql.raw(MOMENT_COLUMNS[moment]);
  const set = await rows(
    ex,
    sql`UPDATE flow_parties SET ${column} = ${ts(now)} WHERE id = ${partyId} AND ${column} IS NULL RETURNING id`,
  );
  return set.length === 1;
}

/** The onboarding problem the launcher sees ({zh, en}), or null to clear it. */
export async function setOnboardingProblem(ex: Exec, partyId: string, problem: object | null): Promise<void> {
  await ex.execute(
    problem === null
      ? sql`UPDATE flow_parties SET onboarding_problem = NULL WHERE id = ${partyId}`
      : sql`UPDATE flow_parties SET onboarding_problem = ${JSON.stringify(problem)}::jsonb WHERE id = ${partyId}`,
  );
}

/** A company party whose company was opened from the room gets its company (once). */
export async function setPartyCompany(ex: Exec, partyId: string, companyId: string): Promise<void> {
  await ex.execute(
    sql`UPDATE flow_parties SET company_id = ${companyId} WHERE id = ${partyId} AND company_id IS NULL`,
  );
}

/** Claims a reminder for a party (at most one per interval); false when another claimed it. */
export async function claimReminder(ex: Exec, partyId: string, now: Date, everyMs: number): Promise<boolean> {
  const claimed = await rows(
    ex,
    sql`UPDATE flow_parties SET last_reminded_at = ${ts(now)} WHERE id = ${partyId}
        AND (last_reminded_at IS NULL OR last_reminded_at <= ${ts(new Date(now.getTime() - everyMs))}) RETURNING id`,
  );
  return claimed.length > 0;
}

export async function markPartySigned(
  ex: Exec,
  partyId: string,
  by: { userId: string; name: string; now: Date },
): Promise<Party | undefined> {
  return camelOne<Party>(
    ex,
    sql`UPDATE flow_parties SET status = 'signed', signed_at = ${ts(by.now)}, signed_by_user = ${by.userId},
    signed_by_name = ${by.name} WHERE id = ${partyId} AND status = 'pending' RETURNING *`,
  );
}

export async function markPartyDeclined(
  ex: Exec,
  partyId: string,
  reason: string | null,
  now: Date,
): Promise<void> {
  await ex.execute(sql`UPDATE flow_parties SET status = 'declined', declined_at = ${ts(now)},
    decline_reason = ${reason} WHERE id = ${partyId}`);
}

/** Closes every party of the flow that has not signed. */
export async function closeOpenParties(ex: Exec, flowId: string): Promise<void> {
  await ex.execute(
    sql`UPDATE flow_parties SET status = 'closed' WHERE flow_id = ${flowId} AND status IN ('waiting', 'pending')`,
  );
}

/** The waiting parties of a step become pending; they are returned. */
export async function openStep(ex: Exec, flowId: string, stepIndex: number): Promise<Party[]> {
  return camelRows<Party>(
    ex,
    sql`UPDATE flow_parties SET status = 'pending' WHERE flow_id = ${flowId} AND step_index = ${stepIndex}
        AND status = 'waiting' RETURNING *`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// party_links

export async function insertPartyLink(ex: Exec, linkHash: string, partyId: string, now: Date): Promise<void> {
  await ex.execute(
    sql`INSERT INTO party_links (link_hash, party_id, created_at) VALUES (${linkHash}, ${partyId}, ${ts(now)})`,
  );
}

export async function partyIdOfLink(ex: Exec, linkHash: string): Promise<string | undefined> {
  return (
    await camelOne<{ partyId: string }>(
      ex,
      sql`SELECT party_id FROM party_links WHERE link_hash = ${linkHash}`,
    )
  )?.partyId;
}

// ---------------------------------------------------------------------------------------------------------
// party_signatures

/** Stores a party's signature on a document version; false when it is stored already. */
export async function insertSignature(
  ex: Exec,
  s: {
    partyId: string;
    documentId: string;
    version: number;
    sha256: string;
    signerUserId: string;
    certSerial: string;
    sealIds: string[];
    at: Date;
  },
): Promise<boolean> {
  const inserted = await rows(
    ex,
    sql`INSERT INTO party_signatures (party_id, document_id, version, sha256, signer_user_id, cert_serial, seal_ids,
        signed_at, revision)
      VALUES (${s.partyId}, ${s.documentId}, ${s.version}, ${s.sha256}, ${s.signerUserId}, ${s.certSerial},
        ${JSON.stringify(s.sealIds)}::jsonb, ${ts(s.at)},
        (SELECT f.revision FROM flows f JOIN flow_parties p ON p.flow_id = f.id WHERE p.id = ${s.partyId}))
      ON CONFLICT DO NOTHING RETURNING party_id`,
  );
  return inserted.length === 1;
}

/** How many documents the party has signed. */
export async function signatureCountOf(ex: Exec, partyId: string): Promise<number> {
  return (
    (
      await one<{ n: number }>(
        ex,
        sql`SELECT count(*)::int AS n FROM party_signatures WHERE party_id = ${partyId} AND withdrawn_at IS NULL`,
      )
    )?.n ?? 0
  );
}

/** Whether the party's signature on this document is stored already. */
export async function hasSigned(ex: Exec, partyId: string, documentId: string): Promise<boolean> {
  const r = await one<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM party_signatures
        WHERE party_id = ${partyId} AND document_id = ${documentId} AND withdrawn_at IS NULL`,
  );
  return (r?.n ?? 0) > 0;
}

/** The certificate serials that signed in a flow. */
export async function certSerialsOf(ex: Exec, flowId: string): Promise<string[]> {
  const list = await camelRows<{ certSerial: string }>(
    ex,
    sql`SELECT DISTINCT s.cert_serial FROM party_signatures s JOIN flow_parties p ON p.id = s.party_id
        WHERE p.flow_id = ${flowId} AND s.withdrawn_at IS NULL`,
  );
  return list.map((r) => r.certSerial);
}

/** The signatures on one document, in signing order (the verification page). */
export async function signaturesOfDocument(ex: Exec, documentId: string) {
  return camelRows<{
    kind: string;
    name: string | null;
    signedByName: string | null;
    companyName: string | null;
    signedAt: unknown;
    sha256: string;
  }>(
    ex,
    sql`SELECT p.kind, p.name, p.signed_by_name, p.company_name, s.signed_at, s.sha256
        FROM party_signatures s JOIN flow_parties p ON p.id = s.party_id
        WHERE s.document_id = ${documentId} AND s.withdrawn_at IS NULL ORDER BY s.version`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// room_tokens

/** A signing room's token (only its hash), with its party's flow. */
type RoomToken = {
  tokenHash: string;
  partyId: string;
  flowId: string;
  userId: string | null;
  phone: string;
  expiresAt: unknown;
  madeAccount: boolean;
  via: string;
  phoneProof: string | null;
  apiKeyId: string | null;
};

export async function insertRoomToken(
  ex: Exec,
  t: {
    tokenHash: string;
    partyId: string;
    userId: string | null;
    phone: string;
    now: Date;
    expiresAt: Date;
    via: string;
    phoneProof: string | null;
    apiKeyId: string | null;
  },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO room_tokens (token_hash, party_id, user_id, phone, created_at, expires_at, via, phone_proof, api_key_id)
    VALUES (${t.tokenHash}, ${t.partyId}, ${t.userId}, ${t.phone}, ${ts(t.now)}, ${ts(t.expiresAt)}, ${t.via},
      ${t.phoneProof}, ${t.apiKeyId})`);
}

/** A room token with its party's flow. */
export async function findRoomToken(ex: Exec, tokenHash: string): Promise<RoomToken | undefined> {
  return camelOne<RoomToken>(
    ex,
    sql`SELECT t.token_hash, t.party_id, p.flow_id, t.user_id, t.phone, t.expires_at, t.made_account, t.via,
          t.phone_proof, t.api_key_id
        FROM room_tokens t JOIN flow_parties p ON p.id = t.party_id WHERE t.token_hash = ${tokenHash}`,
  );
}

/** The room now acts as this account (made or found by onboarding). */
export async function setRoomUser(
  ex: Exec,
  tokenHash: string,
  userId: string,
  isNew: boolean,
): Promise<void> {
  await ex.execute(
    sql`UPDATE room_tokens SET user_id = ${userId}, made_account = made_account OR ${isNew}
        WHERE token_hash = ${tokenHash}`,
  );
}

/** A code sent to the room's phone proved it in this room (issue 23): the room may onboard from now on. */
export async function setRoomPhoneProven(ex: Exec, tokenHash: string, userId: string | null): Promise<void> {
  await ex.execute(
    sql`UPDATE room_tokens SET phone_proof = 'sms', user_id = coalesce(user_id, ${userId})
        WHERE token_hash = ${tokenHash}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// flow_messages

/** A notice in a person's /message list. */
type FlowMessage = {
  id: string;
  kind: string;
  title: string;
  text: string;
  flowId: string | null;
  link: string | null;
  readAt: unknown;
  createdAt: unknown;
};

export async function insertMessage(
  ex: Exec,
  m: {
    phone: string;
    companyId: string | null;
    kind: string;
    title: string;
    text: string;
    flowId: string | null;
    link: string | null;
    now: Date;
  },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO flow_messages (id, phone, company_id, kind, title, text, flow_id, link, created_at)
    VALUES (${randomUUID()}, ${m.phone}, ${m.companyId}, ${m.kind}, ${m.title}, ${m.text}, ${m.flowId}, ${m.link},
      ${ts(m.now)})`);
}

/** Whose messages: a phone's as a person (no company) or within one company. */
export type MessageScope = { phone: string; companyId: string | null };

const scopeSql = (s: MessageScope) =>
  s.companyId
    ? sql`phone = ${s.phone} AND company_id = ${s.companyId}`
    : sql`phone = ${s.phone} AND company_id IS NULL`;

export async function unreadCount(ex: Exec, scope: MessageScope): Promise<number> {
  return (
    (
      await one<{ n: number }>(
        ex,
        sql`SELECT count(*)::int AS n FROM flow_messages WHERE ${scopeSql(scope)} AND read_at IS NULL`,
      )
    )?.n ?? 0
  );
}

/** A page of messages, newest first, and how many there are. */
export async function messagePage(
  ex: Exec,
  scope: MessageScope,
  f: { pageNum: number; pageSize: number; unreadOnly?: boolean },
): Promise<{ list: FlowMessage[]; total: number }> {
  const where = f.unreadOnly ? sql`${scopeSql(scope)} AND read_at IS NULL` : scopeSql(scope);
  const total =
    (await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM flow_messages WHERE ${where}`))?.n ?? 0;
  const list = await camelRows<FlowMessage>(
    ex,
    sql`SELECT * FROM flow_messages WHERE ${where} ORDER BY created_at DESC, id
        LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return { list, total };
}

/** Marks messages read (these ids, or every unread one). */
export async function markMessagesRead(ex: Exec, scope: MessageScope, ids: string[] | undefined, now: Date) {
  const which = ids?.length
    ? sql` AND id IN (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`
    : sql``;
  await ex.execute(
    sql`UPDATE flow_messages SET read_at = ${ts(now)} WHERE ${scopeSql(scope)}${which} AND read_at IS NULL`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// signing_passwords

/** A person's signing password: its argon2id hash and its own wrong-attempt lock. */
export type SigningPassword = {
  passwordHash: string;
  failures: number;
  lockedUntil: unknown;
  updatedAt: unknown;
};

export async function findSigningPassword(ex: Exec, userId: string): Promise<SigningPassword | undefined> {
  return camelOne<SigningPassword>(
    ex,
    sql`SELECT password_hash, failures, locked_until, updated_at FROM signing_passwords WHERE user_id = ${userId}`,
  );
}

export async function resetPasswordFailures(ex: Exec, userId: string): Promise<void> {
  await ex.execute(
    sql`UPDATE signing_passwords SET failures = 0, locked_until = NULL WHERE user_id = ${userId}`,
  );
}

/** Counts a wrong password; the failures so far (undefined when the row is gone). */
export async function countPasswordFailure(ex: Exec, userId: string): Promise<number | undefined> {
  return (
    await one<{ failures: number }>(
      ex,
      sql`UPDATE signing_passwords SET failures = failures + 1 WHERE user_id = ${userId} RETURNING failures`,
    )
  )?.failures;
}

export async function lockSigningPassword(ex: Exec, userId: string, until: Date): Promise<void> {
  await ex.execute(
    sql`UPDATE signing_passwords SET failures = 0, locked_until = ${ts(until)} WHERE user_id = ${userId}`,
  );
}

export async function saveSigningPassword(ex: Exec, userId: string, hash: string, now: Date): Promise<void> {
  await ex.execute(
    sql`INSERT INTO signing_passwords (user_id, password_hash, failures, locked_until, updated_at)
        VALUES (${userId}, ${hash}, 0, NULL, ${ts(now)})
        ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, failures = 0,
          locked_until = NULL, updated_at = EXCLUDED.updated_at`,
  );
}

/**
 * Whether a flow still being signed carries this seal in one of its signatures (party_signatures.seal_ids):
 * the seal module asks before a seal is deleted (its hook sealInUnfinishedSigning).
 */
export async function isSealInUnfinishedFlow(ex: Exec, sealId: string): Promise<boolean> {
  const found = await one<{ ok: number }>(
    ex,
    sql`SELECT 1 AS ok FROM party_signatures ps
          JOIN flow_parties fp ON fp.id = ps.party_id
          JOIN flows f ON f.id = fp.flow_id
         WHERE f.status = 'signing' AND ps.withdrawn_at IS NULL AND ps.seal_ids @> jsonb_build_array(${sealId}::text)
         LIMIT 1`,
  );
  return found !== undefined;
}

/** A one-time embedded-signing code (only its hash) for one party. */
export async function insertEmbedLink(
  ex: Exec,
  l: {
    codeHash: string;
    partyId: string;
    now: Date;
    expiresAt: Date;
    apiKeyId: string | null;
    assertsIdentity: boolean;
  },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO embed_links (code_hash, party_id, created_at, expires_at, api_key_id, asserts_identity)
    VALUES (${l.codeHash}, ${l.partyId}, ${ts(l.now)}, ${ts(l.expiresAt)}, ${l.apiKeyId}, ${l.assertsIdentity})`);
}

/** Spends an embedded-signing code: its party and key, or undefined when unknown, expired or already spent. */
export function spendEmbedLink(
  ex: Exec,
  codeHash: string,
  now: Date,
): Promise<{ partyId: string; apiKeyId: string | null; assertsIdentity: boolean } | undefined> {
  return camelOne<{ partyId: string; apiKeyId: string | null; assertsIdentity: boolean }>(
    ex,
    sql`UPDATE embed_links SET used_at = ${ts(now)}
        WHERE code_hash = ${codeHash} AND used_at IS NULL AND expires_at > ${ts(now)}
        RETURNING party_id, api_key_id, asserts_identity`,
  );
}
