import { randomBytes, randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PT_PER_MM, type PageSize } from '#contract/calls/document.ts';
import {
  DEFAULT_DEADLINE_DAYS,
  type FlowDetail,
  type FlowSummary,
  type PartyInput,
  type Position,
  type launchFlow,
} from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import type { CallRequest } from '#contract/envelope.ts';
import { blobKeyOf } from '../../storage/blob-store.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../http/texts.ts';
import { type AuditActor, appendAudit } from '../audit/index.ts';
import { getCompany, listActiveMembers } from '../company/index.ts';
import { PdfRejected, findKeyword, footerWouldDecrypt, stampFooter } from '../document/index.ts';
import { SignError } from '../../pdf/sign/errors.ts';
import { type Prepared, prepareForSigning } from '../../pdf/sign/repair.ts';
import {
  type DocumentRow,
  accountOf,
  attachToFlow,
  blobBytes,
  flowDocuments,
  ownDocument,
  pageSizesOf,
  presentDocument,
} from '../document/index.ts';
import { findUserById } from '../session/index.ts';
import type { LiveSession } from '../session/index.ts';
import {
  type FlowRow,
  type PartyRow,
  type ResolvedPosition,
  accountOfFlow,
  findFlow,
  linkTypeOf,
  notifyEnd,
  partiesOf,
  presentParty,
  sendLink,
  summaries,
} from './model.ts';
import { releaseUnit, reserveUnit } from '../package/index.ts';
import { dateOf, one, rows, ts } from '../../db/sql-helpers.ts';
import { F } from './texts.ts';

// ---------------------------------------------------------------------------------------------------------
// Who may see a flow

/** The reader of a flow: a logged-in session, or a signing room (one party). */
export type Reader = { session: LiveSession } | { room: { partyId: string; flowId: string } };

export type FlowAccess = { flow: FlowRow; isInitiator: boolean; partyIds: string[] };

const notFound = () => new AppError(Code.NotFound, F.flowNotFound);

/** Phone of a user (sessions carry only the id). */
export async function phoneOf(deps: AppDeps, userId: string): Promise<string> {
  const u = await findUserById(deps.db, userId);
  if (!u) throw new Error(`user ${userId} is missing`);
  return u.phone;
}

/**
 * The parties of a flow a session may act for. Authorisation: a person session acts for person parties
 * addressed to its own phone; a company session acts for parties of ITS company (from the session) when the
 * caller is the administrator or the member the party's link was sent to.
 */
export async function partiesForSession(
  deps: AppDeps,
  session: LiveSession,
  parties: PartyRow[],
): Promise<PartyRow[]> {
  const phone = await phoneOf(deps, session.userId);
  if (session.userType === UserType.Company) {
    if (!session.companyId) return [];
    const mine = parties.filter((p) => p.kind === 'company' && p.company_id === session.companyId);
    if (mine.length === 0) return [];
    const me = (await listActiveMembers(deps, session.companyId)).find((m) => m.userId === session.userId);
    if (!me) return [];
    return mine.filter((p) => me.role === 'admin' || p.phone === phone);
  }
  return parties.filter((p) => p.kind === 'person' && p.phone === phone);
}

/**
 * Decides whether the reader may see the flow: the initiating account (person, or an active member of the
 * initiating company), a party (see partiesForSession), or the room of one of its parties. Anyone else gets
 * 1101 NotFound, the same answer as for a flow that does not exist.
 */
export async function flowAccess(deps: AppDeps, reader: Reader, flowId: string): Promise<FlowAccess> {
  const flow = await findFlow(deps.db, flowId);
  if (!flow) throw notFound();
  if ('room' in reader) {
    if (reader.room.flowId !== flowId) throw notFound();
    return { flow, isInitiator: false, partyIds: [reader.room.partyId] };
  }
  const { session } = reader;
  let isInitiator = false;
  if (session.userType === UserType.Person)
    isInitiator = flow.owner_type === 0 && flow.owner_id === session.userId;
  else if (session.companyId && flow.owner_type === 1 && flow.owner_id === session.companyId) {
    const members = await listActiveMembers(deps, session.companyId);
    isInitiator = members.some((m) => m.userId === session.userId);
  }
  const mine = await partiesForSession(deps, session, await partiesOf(deps.db, flowId));
  if (!isInitiator && mine.length === 0) throw notFound();
  return { flow, isInitiator, partyIds: mine.map((p) => p.id) };
}

// ---------------------------------------------------------------------------------------------------------
// Launch

type LaunchInput = CallRequest<typeof launchFlow>;

const VERIFICATION_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 16 characters of a 32-letter alphabet (80 bits) in groups of four: unguessable, easy to type. */
function newVerificationCode(): string {
  const bytes = randomBytes(16);
  let s = '';
  for (const b of bytes) s += VERIFICATION_ALPHABET[b & 31];
  return s.match(/.{4}/g)!.join('-');
}

const DEFAULT_SIZE_MM = { company: { w: 42, h: 42 }, person: { w: 36, h: 18 } };

/** Turns a position of the launch into a rectangle in PDF points on a page, refusing one off its page. */
async function resolvePosition(
  pos: Position,
  doc: { pageSizes: PageSize[]; keywordHits: (k: string) => Promise<{ page: number; rect: number[] }[]> },
  kind: 'person' | 'company',
): Promise<ResolvedPosition> {
  const pages = doc.pageSizes.length;
  const checkPage = (page: number) => {
    if (page < 1 || page > pages) throw new AppError(Code.Refused, F.pageOutOfRange(page, pages));
    return doc.pageSizes[page - 1];
  };
  let page: number;
  let rect: [number, number, number, number];
  if ('rect' in pos) {
    page = pos.page;
    checkPage(page);
    const [a, b, c, d] = pos.rect;
    rect = [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
  } else if ('mm' in pos) {
    page = pos.page;
    const size = checkPage(page);
    const x1 = pos.mm.left * PT_PER_MM;
    const yTop = size.heightPt - pos.mm.top * PT_PER_MM;
    rect = [x1, yTop - pos.mm.height * PT_PER_MM, x1 + pos.mm.width * PT_PER_MM, yTop];
  } else {
    const hits = await doc.keywordHits(pos.keyword);
    const hit = hits[(pos.occurrence ?? 1) - 1];
    if (!hit) throw new AppError(Code.Refused, F.keywordNotFound(pos.keyword));
    page = hit.page;
    const size = checkPage(page);
    const w = (pos.widthMm ?? DEFAULT_SIZE_MM[kind].w) * PT_PER_MM;
    const h = (pos.heightMm ?? DEFAULT_SIZE_MM[kind].h) * PT_PER_MM;
    const cx = (hit.rect[0] + hit.rect[2]) / 2;
    const cy = (hit.rect[1] + hit.rect[3]) / 2;
    // Centred on the keyword, then moved inside the page if it would stick out.
    const x1 = Math.min(Math.max(0, cx - w / 2), size.widthPt - w);
    const y1 = Math.min(Math.max(0, cy - h / 2), size.heightPt - h);
    rect = [x1, y1, x1 + w, y1 + h];
  }
  const size = doc.pageSizes[page - 1];
  const slack = 1;
  if (
    rect[2] - rect[0] < 1 ||
    rect[3] - rect[1] < 1 ||
    rect[0] < -slack ||
    rect[1] < -slack ||
    rect[2] > size.widthPt + slack ||
    rect[3] > size.heightPt + slack
  )
    throw new AppError(Code.Refused, F.positionOffPage);
  return {
    documentId: pos.documentId,
    page,
    rect: rect.map((v) => Math.round(v * 100) / 100) as typeof rect,
  };
}

type PreparedParty = {
  id: string;
  stepIndex: number;
  ord: number;
  kind: 'person' | 'company';
  name: string | null;
  phone: string;
  companyId: string | null;
  companyName: string | null;
  applies: object;
  intent: 'sms' | 'face' | 'password';
  positions: ResolvedPosition[];
};

async function companyByName(deps: AppDeps, name: string): Promise<string | undefined> {
  const r = await one<{ id: string }>(
    deps.db,
    sql`SELECT id FROM companies WHERE name = ${name} AND status = 'verified' ORDER BY id LIMIT 1`,
  );
  return r?.id;
}

/** How a placement error names a signer: the name typed at launch, else the company, else the masked phone. */
function signerLabel(input: PartyInput): string {
  const name = input.kind === 'company' ? input.companyName || input.operatorName : input.name;
  if (name?.trim()) return name.trim();
  const phone = input.kind === 'company' ? input.operatorPhone : input.phone;
  return phone ? `${phone.slice(0, 3)}****${phone.slice(7)}` : '—';
}

async function prepareParty(
  deps: AppDeps,
  input: PartyInput,
  stepIndex: number,
  ord: number,
  docs: Map<
    string,
    { pageSizes: PageSize[]; keywordHits: (k: string) => Promise<{ page: number; rect: number[] }[]> }
  >,
): Promise<PreparedParty> {
  const seenDocs = new Set<string>();
  const positions: ResolvedPosition[] = [];
  // A placement error names the signer it is about (issue 11 edge 6): the launcher sees whose box to fix.
  const about = (text: Text) =>
    new AppError(Code.Refused, F.aboutSigner(signerLabel(input), stepIndex, text));
  for (const pos of input.positions) {
    const doc = docs.get(pos.documentId);
    if (!doc) throw about(F.positionUnknownDocument);
    // One signature per party and document: one position each (the engine writes one widget per update).
    if (seenDocs.has(pos.documentId)) throw about(F.positionTwice);
    seenDocs.add(pos.documentId);
    try {
      positions.push(await resolvePosition(pos as Position, doc, input.kind));
    } catch (error) {
      if (error instanceof AppError && typeof error.text !== 'string') throw about(error.text);
      throw error;
    }
  }
  const applies = {
    companySealType: input.applies?.companySealType ?? null,
    legalPersonSeal: input.applies?.legalPersonSeal ?? false,
    personSignature: input.applies?.personSignature ?? false,
    date: input.applies?.date ?? false,
    crossPageSeal: input.applies?.crossPageSeal ?? false,
  };
  if (input.kind === 'person') {
    applies.companySealType = null;
    applies.legalPersonSeal = false;
    applies.personSignature = true;
    return {
      id: randomUUID(),
      stepIndex,
      ord,
      kind: 'person',
      name: input.name,
      phone: await pickedPhone(deps, input.phone, input.userId, null),
      companyId: null,
      companyName: null,
      applies,
      intent: input.intent ?? 'sms',
      positions,
    };
  }
  let companyId = input.companyId;
  if (!companyId && input.companyName) companyId = await companyByName(deps, input.companyName);
  const company = companyId ? await getCompany(deps, companyId) : undefined;
  if (!applies.companySealType && !applies.legalPersonSeal)
    throw new AppError(Code.Refused, F.companyNeedsSomething);
  if (company?.status !== 'verified') {
    // A company not on the platform yet: its handler opens it from the signing room (issue 11).
    if (!input.inviteToOpen || input.companyId || !input.companyName)
      throw new AppError(Code.Refused, F.companyUnknown);
    return {
      id: randomUUID(),
      stepIndex,
      ord,
      kind: 'company',
      name: input.operatorName ?? null,
      phone: await pickedPhone(deps, input.operatorPhone, input.operatorUserId, null),
      companyId: null,
      companyName: input.companyName,
      applies,
      intent: input.intent ?? 'sms',
      positions,
    };
  }
  return {
    id: randomUUID(),
    stepIndex,
    ord,
    kind: 'company',
    name: input.operatorName ?? null,
    phone: await pickedPhone(deps, input.operatorPhone, input.operatorUserId, company.id),
    companyId: company.id,
    companyName: company.name,
    applies,
    intent: input.intent ?? 'sms',
    positions,
  };
}

/**
 * The phone a party's link goes to: typed, or of the user chosen in a picker (who, for a company party, must
 * be an active member of that company). Both given must agree. The launcher never sees the phone unmasked.
 */
async function pickedPhone(
  deps: AppDeps,
  phone: string | undefined,
  userId: string | undefined,
  companyId: string | null,
): Promise<string> {
  if (!userId) {
    if (!phone) throw new AppError(Code.BadRequest, F.signerPhoneMissing);
    return phone;
  }
  const picked = companyId
    ? (await listActiveMembers(deps, companyId)).find((m) => m.userId === userId)?.phone
    : (await findUserById(deps.db, userId))?.phone;
  if (!picked) throw new AppError(Code.NotFound, F.pickedSignerGone);
  if (phone && phone !== picked) throw new AppError(Code.Refused, F.pickedSignerMismatch);
  return picked;
}

/** Who the caller is, for audit entries. */
export async function sessionActor(
  deps: AppDeps,
  session: LiveSession,
  req: { ip?: string; userAgent?: string | null },
  companyName?: string | null,
): Promise<AuditActor> {
  const u = await findUserById(deps.db, session.userId);
  return {
    actor: u?.name ?? (u ? `${u.phone.slice(0, 3)}****${u.phone.slice(-4)}` : session.userId),
    actorPhone: u?.phone ?? null,
    actorCompany: companyName ?? null,
    ip: req.ip ?? null,
    userAgent: req.userAgent ?? null,
  };
}

/**
 * Launches a flow: checks documents and parties, stamps each document with its verification footer (new
 * blobs), then in ONE transaction reserves a quota unit (conditional UPDATE), stores the flow and its
 * parties and moves each document to its stamped version; afterwards the first step's parties get links.
 */
export async function launch(
  deps: AppDeps,
  session: LiveSession,
  input: LaunchInput,
  req: { ip?: string; userAgent?: string | null },
): Promise<{ flowId: string; status: FlowSummary['status']; verificationCodes: string[] }> {
  const account = await accountOf(deps, session);
  const now = deps.clock.now();
  if (input.isQuick && input.documentIds.length !== 1) throw new AppError(Code.Refused, F.quickNeedsOne);
  if (new Set(input.documentIds).size !== input.documentIds.length)
    throw new AppError(Code.Refused, F.duplicateDocument);
  const deadline = input.deadline
    ? new Date(input.deadline)
    : new Date(now.getTime() + DEFAULT_DEADLINE_DAYS * 86_400_000);
  if (deadline.getTime() <= now.getTime()) throw new AppError(Code.Refused, F.deadlineInPast);

  const docRows: DocumentRow[] = [];
  for (const id of input.documentIds) {
    const row = await ownDocument(deps, account, id);
    if (row.flow_id) throw new AppError(Code.Refused, F.documentAlreadyLaunched);
    docRows.push(row);
  }
  const originals = new Map<string, Uint8Array>();
  for (const d of docRows) originals.set(d.id, await blobBytes(deps, d.current_key));
  const docInfo = new Map(
    docRows.map((d) => {
      const cache = new Map<string, Promise<{ page: number; rect: number[] }[]>>();
      return [
        d.id,
        {
          pageSizes: pageSizesOf(d),
          keywordHits: (k: string) => {
            let hit = cache.get(k);
            if (!hit) {
              hit = findKeyword(originals.get(d.id)!, k);
              cache.set(k, hit);
            }
            return hit;
          },
        },
      ] as const;
    }),
  );
  const parties: PreparedParty[] = [];
  for (const [stepIndex, step] of input.steps.entries())
    for (const [ord, p] of step.parties.entries())
      parties.push(await prepareParty(deps, p, stepIndex, ord, docInfo));
  const keys = new Set<string>();
  for (const p of parties) {
    const key = `${p.kind}|${p.phone}|${p.companyId ?? ''}`;
    if (keys.has(key)) throw new AppError(Code.Refused, F.samePartyTwice);
    keys.add(key);
  }

  // The footer: a full rewrite is allowed now because nothing is signed yet.
  const flowId = randomUUID();
  const stamped: {
    row: DocumentRow;
    key: string;
    sha: string;
    size: number;
    code: string;
    repaired?: { key: string; problem: string };
    /** why the file was launched without the footer (encrypted, or damaged beyond what pdf-lib reads) */
    noFooter: string | null;
  }[] = [];
  for (const d of docRows) {
    const code = newVerificationCode();
    // Damaged cross-reference data is repaired once, here, before the first signature; the repaired file
    // is kept (a blob the audit trail names) and is what the footer goes on.
    const original = originals.get(d.id)!;
    const ready = repairedOrNull(original);
    const base = ready?.bytes ?? original;
    // The footer is a pdf-lib rewrite: an encrypted file (the rewrite would drop its encryption), a
    // repaired one or one pdf-lib cannot read is launched as it is, without the footer, and the audit
    // trail says so; its verification code still works on the verification page.
    // A repaired file is not rewritten either: pdf-lib may read a damaged file otherwise than viewers do,
    // and the repaired bytes stay a prefix of every signed revision.
    let noFooter: string | null = footerWouldDecrypt(base) ? 'encrypted' : ready ? 'damaged' : null;
    let bytes = base;
    if (!noFooter)
      try {
        bytes = await stampFooter(base, code, deps.config.publicUrl);
      } catch (err) {
        if (!(err instanceof PdfRejected)) throw err;
        noFooter = 'damaged';
      }
    stamped.push({
      row: d,
      key: await deps.storage.put(bytes),
      sha: blobKeyOf(bytes),
      size: bytes.length,
      code,
      repaired: ready
        ? { key: await deps.storage.put(ready.bytes), problem: ready.problem ?? '' }
        : undefined,
      noFooter,
    });
  }

  const user = await findUserById(deps.db, session.userId);
  const actor = await sessionActor(deps, session, req, account.companyName);
  const search = [input.title, ...docRows.map((d) => d.name)].join('\n').toLowerCase();
  await deps.db.transaction(async (tx) => {
    if (!(await reserveUnit(tx, deps, account, flowId)))
      throw new AppError(Code.QuotaExhausted, F.quotaExhausted);
    await tx.execute(sql`
      INSERT INTO flows (id, owner_type, owner_id, initiator_user_id, initiator_name, initiator_company_name, title,
        message, is_quick, status, current_step, step_count, deadline, search_text, quota_state, created_at)
      VALUES (${flowId}, ${account.ownerType}, ${account.ownerId}, ${session.userId}, ${user?.name ?? null},
        ${account.companyName}, ${input.title}, ${input.message ?? null}, ${input.isQuick ?? false}, 'signing', 0,
        ${input.steps.length}, ${ts(deadline)}, ${search}, 'reserved', ${ts(now)})`);
    for (const p of parties) {
      await tx.execute(sql`
        INSERT INTO flow_parties (id, flow_id, step_index, ord, kind, name, phone, company_id, company_name, applies,
          positions, status, link_type, intent)
        VALUES (${p.id}, ${flowId}, ${p.stepIndex}, ${p.ord}, ${p.kind}, ${p.name}, ${p.phone}, ${p.companyId},
          ${p.companyName}, ${JSON.stringify(p.applies)}::jsonb, ${JSON.stringify(p.positions)}::jsonb,
          ${p.stepIndex === 0 ? 'pending' : 'waiting'}, ${linkTypeOf(p.kind)}, ${p.intent})`);
    }
    for (const s of stamped) {
      const moved = await attachToFlow(tx, s.row, {
        flowId,
        key: s.key,
        sha: s.sha,
        size: s.size,
        code: s.code,
        now,
      });
      // Launched by a parallel call in the meantime: this whole launch is undone, its quota unit too.
      if (!moved) throw new AppError(Code.Refused, F.documentAlreadyLaunched);
      if (s.repaired)
        await appendAudit(tx, {
          ...actor,
          flowId,
          documentId: s.row.id,
          event: 'repair',
          detail: `repaired before signing: ${s.repaired.problem}`.slice(0, 300),
          at: now,
          hashBefore: s.row.current_sha256,
          hashAfter: s.repaired.key,
        });
      await appendAudit(tx, {
        ...actor,
        flowId,
        documentId: s.row.id,
        event: 'launch',
        detail: `${input.title} · ${parties.length} parties · verification ${s.code}${
          s.noFooter ? ` · no footer (${s.noFooter})` : ''
        }`,
        at: now,
        hashBefore: s.repaired?.key ?? s.row.current_sha256,
        hashAfter: s.sha,
      });
    }
  });
  const flow = (await findFlow(deps.db, flowId))!;
  for (const p of await partiesOf(deps.db, flowId))
    if (p.step_index === 0) await sendLink(deps, flow, p, 'sign_request');
  return { flowId, status: 'signing', verificationCodes: stamped.map((s) => s.code) };
}

/** The repaired bytes of a document whose cross-reference data is damaged, or null (sound, or unreadable). */
function repairedOrNull(bytes: Uint8Array): Prepared | null {
  try {
    const ready = prepareForSigning(bytes);
    return ready.repaired ? ready : null;
  } catch (err) {
    // what cannot be signed is refused when it is signed, with its reason; the launch goes on
    if (err instanceof SignError) return null;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading

export async function detail(deps: AppDeps, reader: Reader, flowId: string): Promise<FlowDetail> {
  await expireIfDue(deps, flowId);
  const access = await flowAccess(deps, reader, flowId);
  const { flow } = access;
  const parties = await partiesOf(deps.db, flowId);
  const docs = await flowDocuments(deps.db, flowId);
  const [summary] = await summaries(deps.db, [flow]);
  const steps = Array.from({ length: flow.step_count }, (_, index) => ({
    index,
    parties: parties.filter((p) => p.step_index === index).map(presentParty),
  }));
  const isOpen = flow.status === 'signing';
  return {
    ...summary,
    message: flow.message,
    endReason: flow.end_reason,
    endedAt: flow.ended_at ? dateOf(flow.ended_at).toISOString() : null,
    documents: docs.map((d) => presentDocument(d, flow.status)),
    steps,
    mine: {
      isInitiator: access.isInitiator,
      myPendingPartyIds: parties
        .filter((p) => access.partyIds.includes(p.id) && p.status === 'pending' && isOpen)
        .map((p) => p.id),
      canCancel: access.isInitiator && isOpen,
      canRemind: access.isInitiator && isOpen,
    },
  };
}

type ListFilters = {
  pageNum: number;
  pageSize: number;
  keyword?: string;
  dateFrom?: string;
  dateTo?: string;
};

function filterSql(f: ListFilters, alias: SQL): SQL[] {
  const out: SQL[] = [];
  if (f.keyword) {
    const pattern = `%${f.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    out.push(sql`${alias}.search_text LIKE ${pattern}`);
  }
  if (f.dateFrom) out.push(sql`${alias}.created_at >= ${ts(new Date(f.dateFrom))}`);
  if (f.dateTo) out.push(sql`${alias}.created_at < ${ts(new Date(f.dateTo))}`);
  return out;
}

export async function listLaunched(
  deps: AppDeps,
  session: LiveSession,
  f: ListFilters & { status?: string },
) {
  const account = await accountOf(deps, session);
  await sweepExpired(deps);
  const conds = [
    sql`f.owner_type = ${account.ownerType}`,
    sql`f.owner_id = ${account.ownerId}`,
    ...filterSql(f, sql.raw('f')),
  ];
  if (f.status) conds.push(sql`f.status = ${f.status}`);
  const where = sql.join(conds, sql` AND `);
  const total =
    (await one<{ n: number }>(deps.db, sql`SELECT count(*)::int AS n FROM flows f WHERE ${where}`))?.n ?? 0;
  const list = await rows<FlowRow>(
    deps.db,
    sql`SELECT f.* FROM flows f WHERE ${where} ORDER BY f.created_at DESC, f.id
        LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return { list: await summaries(deps.db, list), total, pageNum: f.pageNum, pageSize: f.pageSize };
}

export async function listPending(deps: AppDeps, session: LiveSession, f: ListFilters & { status?: string }) {
  await sweepExpired(deps);
  const phone = await phoneOf(deps, session.userId);
  const conds: SQL[] = [sql`p.status = ${f.status ?? 'pending'}`, ...filterSql(f, sql.raw('f'))];
  if (session.userType === UserType.Company) {
    const access = await accountOf(deps, session);
    const me = (await listActiveMembers(deps, access.ownerId)).find((m) => m.userId === session.userId);
    conds.push(sql`p.kind = 'company'`, sql`p.company_id = ${access.ownerId}`);
    // Authorisation: the administrator sees every party of the company, an operator those sent to them.
    if (me?.role !== 'admin') conds.push(sql`p.phone = ${phone}`);
  } else {
    conds.push(sql`p.kind = 'person'`, sql`p.phone = ${phone}`);
  }
  const where = sql.join(conds, sql` AND `);
  const total =
    (
      await one<{ n: number }>(
        deps.db,
        sql`SELECT count(*)::int AS n FROM flow_parties p JOIN flows f ON f.id = p.flow_id WHERE ${where}`,
      )
    )?.n ?? 0;
  const list = await rows<
    FlowRow & { party_id: string; party_status: string; party_kind: 'person' | 'company' }
  >(
    deps.db,
    sql`SELECT f.*, p.id AS party_id, p.status AS party_status, p.kind AS party_kind
        FROM flow_parties p JOIN flows f ON f.id = p.flow_id WHERE ${where}
        ORDER BY f.created_at DESC, p.id LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  const sums = await summaries(deps.db, list);
  return {
    list: list.map((r, i) => ({
      ...sums[i],
      partyId: r.party_id,
      partyStatus: r.party_status as 'pending',
      partyKind: r.party_kind,
    })),
    total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Ending a flow: cancel, decline, expire

/**
 * Ends an open flow in one transaction: status (only from 'signing', so two enders cannot both win), the
 * unsigned parties closed, the quota unit released, an audit entry on every document. False when the
 * flow was not open any more.
 *
 * The flow's states form one machine, each transition a single conditional UPDATE of the flow row:
 * open (status 'signing', current_step < step_count) -> all signed (current_step = step_count, set in the
 * same transaction that stores the last signature) -> completed; only an open flow can be cancelled,
 * declined or expired. Once the last signature is stored, completion is the only way on (a crash before it
 * is finished by completeStragglers), so a cancel arriving in between is refused.
 */
export async function endFlow(
  deps: AppDeps,
  flowId: string,
  end: {
    status: 'cancelled' | 'declined' | 'expired';
    reason: string | null;
    actor: AuditActor;
    decliningPartyId?: string;
  },
): Promise<boolean> {
  const now = deps.clock.now();
  const event = end.status === 'cancelled' ? 'cancel' : end.status === 'declined' ? 'decline' : 'expire';
  const won = await deps.db.transaction(async (tx) => {
    const flow = await one<FlowRow>(
      tx,
      sql`UPDATE flows SET status = ${end.status}, ended_at = ${ts(now)}, end_reason = ${end.reason},
            quota_state = 'released'
          WHERE id = ${flowId} AND status = 'signing' AND current_step < step_count RETURNING *`,
    );
    if (!flow) return false;
    await releaseUnit(tx, accountOfFlow(flow), flowId, now);
    if (end.decliningPartyId)
      await tx.execute(sql`UPDATE flow_parties SET status = 'declined', declined_at = ${ts(now)},
        decline_reason = ${end.reason} WHERE id = ${end.decliningPartyId}`);
    await tx.execute(
      sql`UPDATE flow_parties SET status = 'closed' WHERE flow_id = ${flowId} AND status IN ('waiting', 'pending')`,
    );
    for (const d of await flowDocuments(tx, flowId))
      await appendAudit(tx, {
        ...end.actor,
        flowId,
        documentId: d.id,
        event,
        detail: end.reason,
        at: now,
        hashBefore: d.current_sha256,
        hashAfter: d.current_sha256,
      });
    return true;
  });
  if (won) {
    const flow = (await findFlow(deps.db, flowId))!;
    const initiator = await findUserById(deps.db, flow.initiator_user_id);
    await notifyEnd(deps, flow, end.status, initiator?.phone ?? null);
  }
  return won;
}

/** Every party has signed (the last signature is stored) and the flow is completing or completed. */
export const isAllSigned = (f: FlowRow): boolean =>
  f.status === 'completed' || (f.status === 'signing' && f.current_step >= f.step_count);

const PLATFORM_ACTOR: AuditActor = { actor: 'platform' };

/** Expires one flow when its deadline has passed (called on access). */
export async function expireIfDue(deps: AppDeps, flowId: string): Promise<void> {
  const f = await one<{ id: string }>(
    deps.db,
    sql`SELECT id FROM flows WHERE id = ${flowId} AND status = 'signing' AND deadline <= ${ts(deps.clock.now())}`,
  );
  if (f) await endFlow(deps, f.id, { status: 'expired', reason: null, actor: PLATFORM_ACTOR });
}

/** Expires every open flow past its deadline (the timer's sweep and list calls). */
export async function sweepExpired(deps: AppDeps): Promise<number> {
  const due = await rows<{ id: string }>(
    deps.db,
    sql`SELECT id FROM flows WHERE status = 'signing' AND deadline <= ${ts(deps.clock.now())} ORDER BY deadline LIMIT 200`,
  );
  let n = 0;
  for (const f of due)
    if (await endFlow(deps, f.id, { status: 'expired', reason: null, actor: PLATFORM_ACTOR })) n++;
  return n;
}

export async function cancel(
  deps: AppDeps,
  session: LiveSession,
  flowId: string,
  reason: string,
  req: { ip?: string; userAgent?: string | null },
): Promise<void> {
  await expireIfDue(deps, flowId);
  const access = await flowAccess(deps, { session }, flowId);
  // Only the initiating account cancels; a party declines instead.
  if (!access.isInitiator) throw new AppError(Code.Refused, F.notInitiator, { status: 602 });
  const actor = await sessionActor(deps, session, req, access.flow.initiator_company_name);
  if (!(await endFlow(deps, flowId, { status: 'cancelled', reason, actor }))) {
    const now = (await findFlow(deps.db, flowId))!;
    throw new AppError(Code.FlowClosed, isAllSigned(now) ? F.allSigned : F.flowClosed(now.status));
  }
}

const REMIND_EVERY_MS = 10 * 60_000;

export async function remind(
  deps: AppDeps,
  session: LiveSession,
  flowId: string,
  partyIds: string[] | undefined,
  req: { ip?: string; userAgent?: string | null },
): Promise<number> {
  await expireIfDue(deps, flowId);
  const access = await flowAccess(deps, { session }, flowId);
  if (!access.isInitiator) throw new AppError(Code.Refused, F.notInitiator, { status: 602 });
  if (access.flow.status !== 'signing') throw new AppError(Code.FlowClosed, F.flowClosed(access.flow.status));
  const now = deps.clock.now();
  const due = (await partiesOf(deps.db, flowId)).filter(
    (p) =>
      p.status === 'pending' &&
      (!partyIds || partyIds.includes(p.id)) &&
      (!p.last_reminded_at || now.getTime() - dateOf(p.last_reminded_at).getTime() >= REMIND_EVERY_MS),
  );
  const actor = await sessionActor(deps, session, req, access.flow.initiator_company_name);
  for (const p of due) {
    // Claimed first, so two reminders at once send one message.
    const claimed = await rows(
      deps.db,
      sql`UPDATE flow_parties SET last_reminded_at = ${ts(now)} WHERE id = ${p.id}
          AND (last_reminded_at IS NULL OR last_reminded_at <= ${ts(new Date(now.getTime() - REMIND_EVERY_MS))}) RETURNING id`,
    );
    if (claimed.length === 0) continue;
    await sendLink(deps, access.flow, p, 'remind');
    await deps.db.transaction(async (tx) => {
      for (const d of await flowDocuments(tx, flowId))
        await appendAudit(tx, {
          ...actor,
          flowId,
          documentId: d.id,
          event: 'remind',
          detail: `${p.name ?? p.company_name ?? ''} ${p.phone.slice(0, 3)}****${p.phone.slice(-4)}`,
          at: now,
          hashBefore: d.current_sha256,
          hashAfter: d.current_sha256,
        });
    });
  }
  return due.length;
}

// ---------------------------------------------------------------------------------------------------------
// Messages

export async function listMessages(
  deps: AppDeps,
  session: LiveSession,
  f: { pageNum: number; pageSize: number; unreadOnly?: boolean },
) {
  const phone = await phoneOf(deps, session.userId);
  const scope =
    session.userType === UserType.Company && session.companyId
      ? sql`phone = ${phone} AND company_id = ${session.companyId}`
      : sql`phone = ${phone} AND company_id IS NULL`;
  const where = f.unreadOnly ? sql`${scope} AND read_at IS NULL` : scope;
  const total =
    (await one<{ n: number }>(deps.db, sql`SELECT count(*)::int AS n FROM flow_messages WHERE ${where}`))
      ?.n ?? 0;
  const unread =
    (
      await one<{ n: number }>(
        deps.db,
        sql`SELECT count(*)::int AS n FROM flow_messages WHERE ${scope} AND read_at IS NULL`,
      )
    )?.n ?? 0;
  const list = await rows<{
    id: string;
    kind: string;
    title: string;
    text: string;
    flow_id: string | null;
    link: string | null;
    read_at: unknown;
    created_at: unknown;
  }>(
    deps.db,
    sql`SELECT * FROM flow_messages WHERE ${where} ORDER BY created_at DESC, id
        LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return {
    list: list.map((m) => ({
      id: m.id,
      kind: m.kind as 'remind',
      title: m.title,
      text: m.text,
      flowId: m.flow_id,
      link: m.link,
      isRead: m.read_at !== null,
      createdAt: dateOf(m.created_at).toISOString(),
    })),
    total,
    unread,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

export async function markRead(deps: AppDeps, session: LiveSession, ids: string[] | undefined) {
  const phone = await phoneOf(deps, session.userId);
  const scope =
    session.userType === UserType.Company && session.companyId
      ? sql`phone = ${phone} AND company_id = ${session.companyId}`
      : sql`phone = ${phone} AND company_id IS NULL`;
  const which = ids?.length
    ? sql` AND id IN (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`
    : sql``;
  await deps.db.execute(
    sql`UPDATE flow_messages SET read_at = ${ts(deps.clock.now())} WHERE ${scope}${which} AND read_at IS NULL`,
  );
  const unread =
    (
      await one<{ n: number }>(
        deps.db,
        sql`SELECT count(*)::int AS n FROM flow_messages WHERE ${scope} AND read_at IS NULL`,
      )
    )?.n ?? 0;
  return { unread };
}

export { flowDocuments };
