// Launch: the initiator's documents and parties are checked (positions resolved to rectangles on their
// pages, signers picked or typed, companies found), each document is stamped with its verification footer
// (a new blob; a damaged file is repaired first, an encrypted one goes without the footer), then ONE
// transaction reserves a quota unit, stores the flow and its parties and moves each document into the flow.
// Afterwards the first step's parties get their links, unless the company's launch rule holds the flow for
// approval (issue 27): then the request is stored in that transaction and the links wait for the approval
// (releaseLaunch), or the flow is cancelled on a rejection.
import type { Actor } from '../../lib/actor.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { PT_PER_MM, type PageSize } from '#contract/calls/document.ts';
import {
  DEFAULT_DEADLINE_DAYS,
  type FlowSummary,
  type PartyInput,
  type Position,
  type launchFlow,
} from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { appliesCompanySeal } from '#contract/rules/seal-needs.ts';
import type { CallRequest } from '#contract/envelope.ts';
import { blobKeyOf } from '../../storage/blob-store.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../http/texts.ts';
import { type LaunchDecided, launchRuleFor, requestLaunchApproval } from '../approval/index.ts';
import { appendAudit } from '../audit/index.ts';
import { HANDLING, getCompany, listActiveMembers, verifiedCompanyIdByName } from '../company/index.ts';
import {
  PdfRejected,
  findKeyword,
  footerWouldDecrypt,
  preferredKeywordHit,
  stampFooter,
} from '../../pdf/compose/pdf-tools.ts';
import { SignError } from '../../pdf/sign/errors.ts';
import { type Prepared, prepareForSigning } from '../../pdf/sign/repair.ts';
import {
  type Document,
  accountOf,
  attachToFlow,
  blobBytes,
  ownDocument,
  pageSizesOf,
} from '../document/index.ts';
import { findUserById } from '../session/index.ts';
import { type Flow, type ResolvedPosition, findFlow, linkTypeOf, partiesOf } from './model.ts';
import { forbidReassign } from './reassign-queries.ts';
import { askToSign } from './ask-to-sign.ts';
import { reserveUnit } from '../package/index.ts';
import { F } from './texts.ts';
import type { FieldDefinition } from '#contract/calls/fields.ts';
import { FIELD_LIMITS } from '#contract/rules/fields.ts';
import { addFormFields } from '../../pdf/sign/form-fields.ts';
import { type PlannedField, formFieldsOf, planPartyFields } from './fields.ts';
import { insertFields } from './fields-queries.ts';

import type { Exec } from '../../db/sql-helpers.ts';
import * as q from './queries.ts';
import { storeFlowEvent } from './events.ts';
import { sessionActor } from './access.ts';
import { endFlowIn } from './end.ts';
import { checkCcList, storeCcs } from './cc.ts';
import { checkRenews, storeLaunchTerm } from './term.ts';
import { dropLaunchedDrafts } from './drafts.ts';

type LaunchInput = CallRequest<typeof launchFlow>;

const VERIFICATION_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 16 characters of a 32-letter alphabet (80 bits) in groups of four: unguessable, easy to type. */
function newVerificationCode(): string {
  const bytes = randomBytes(16);
  let s = '';
  for (const b of bytes) s += VERIFICATION_ALPHABET[b & 31];
  return s.match(/.{4}/g)!.join('-');
}

export const DEFAULT_SIZE_MM = {
  company: { w: 42, h: 42 },
  person: { w: 36, h: 18 },
  field: { w: 50, h: 8 },
};

/** A document as placement reads it: its page sizes and the keyword hits of its text (cached). */
export type PlacementDoc = {
  pageSizes: PageSize[];
  keywordHits: (k: string) => ReturnType<typeof findKeyword>;
};

/** The placement view of a file: keyword hits found in `bytes` once per keyword. */
export function placementDoc(bytes: Uint8Array, pageSizes: PageSize[]): PlacementDoc {
  const cache = new Map<string, ReturnType<typeof findKeyword>>();
  return {
    pageSizes,
    keywordHits: (k: string) => {
      let hit = cache.get(k);
      if (!hit) {
        hit = findKeyword(bytes, k);
        cache.set(k, hit);
      }
      return hit;
    },
  };
}

/** Turns a position of the launch into a rectangle in PDF points on a page, refusing one off its page. */
export async function resolvePosition(
  pos: Position,
  doc: PlacementDoc,
  /** The box of a keyword position that gives no size (mm). */
  defaultMm: { w: number; h: number },
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
    const hit = hits[pos.occurrence ? pos.occurrence - 1 : preferredKeywordHit(hits)];
    if (!hit) throw new AppError(Code.Refused, F.keywordNotFound(pos.keyword));
    page = hit.page;
    const size = checkPage(page);
    const w = (pos.widthMm ?? defaultMm.w) * PT_PER_MM;
    const h = (pos.heightMm ?? defaultMm.h) * PT_PER_MM;
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
  /** The fields this party fills in the room (issue 28), placed. */
  fields: PlannedField[];
  /** The positions as given, kept for a revised document (issue 29). */
  placement: PartyPlacement;
};

/** A party's positions and field positions as the launch gave them (flow_parties.placement). */
export type PartyPlacement = { positions: Position[]; fields: { key: string; position: Position }[] };

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
  docs: Map<string, PlacementDoc>,
  /** The party's place in the flow (0-based, step by step): its fields' PDF names carry it. */
  partyIndex: number,
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
      positions.push(await resolvePosition(pos as Position, doc, DEFAULT_SIZE_MM[input.kind]));
    } catch (error) {
      if (error instanceof AppError && typeof error.text !== 'string') throw about(error.text);
      throw error;
    }
  }
  // The fields the party fills, each on a document it signs (its signature then covers the value).
  let fields: PlannedField[];
  try {
    fields = await planPartyFields(
      (input.fields ?? []) as (FieldDefinition & { position: Position })[],
      partyIndex,
      seenDocs,
      (pos) => resolvePosition(pos, docs.get(pos.documentId)!, DEFAULT_SIZE_MM.field),
    );
  } catch (error) {
    if (error instanceof AppError && typeof error.text !== 'string') throw about(error.text);
    throw error;
  }
  const applies = {
    companySealType: input.applies?.companySealType ?? null,
    anyCompanySeal: input.applies?.anyCompanySeal ?? false,
    legalPersonSeal: input.applies?.legalPersonSeal ?? false,
    personSignature: input.applies?.personSignature ?? false,
    date: input.applies?.date ?? false,
    crossPageSeal: input.applies?.crossPageSeal ?? false,
  };
  const placement: PartyPlacement = {
    positions: input.positions as Position[],
    fields: (input.fields ?? []).map((f) => ({ key: f.key, position: f.position as Position })),
  };
  if (input.kind === 'person') {
    applies.companySealType = null;
    applies.anyCompanySeal = false;
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
      fields,
      placement,
    };
  }
  let companyId = input.companyId;
  if (!companyId && input.companyName) companyId = await verifiedCompanyIdByName(deps, input.companyName);
  const company = companyId ? await getCompany(deps, companyId) : undefined;
  if (!appliesCompanySeal(applies) && !applies.legalPersonSeal)
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
      fields,
      placement,
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
    fields,
    placement,
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

/** How a placement refusal names a party already stored (a revision): its name, company or masked phone. */
export const partyLabel = (p: { name: string | null; companyName: string | null; phone: string }) =>
  p.name?.trim() || p.companyName?.trim() || `${p.phone.slice(0, 3)}****${p.phone.slice(7)}`;

/**
 * Launches a flow: checks documents and parties, stamps each document with its verification footer (new
 * blobs), then in ONE transaction reserves a quota unit (conditional UPDATE), stores the flow and its
 * parties and moves each document to its stamped version; afterwards the first step's parties get links.
 */
export async function launch(
  deps: AppDeps,
  session: Actor,
  input: LaunchInput,
  req: { ip?: string; userAgent?: string | null },
  /** Where the documents came from, when a template made them (recorded on the flow). */
  origin: {
    templateId?: string;
    /** Run inside the launch's transaction once the flow is stored (issue 29: a rescission's link). */
    inLaunch?: (tx: Exec, flowId: string) => Promise<void>;
  } = {},
): Promise<{
  flowId: string;
  status: FlowSummary['status'];
  verificationCodes: string[];
  awaitingApproval?: boolean;
}> {
  // Launching for a company: its administrator or a member holding the handler role now (an API key acts as
  // its administrator).
  const account = await accountOf(deps, session, HANDLING);
  const now = deps.clock.now();
  if (input.isQuick && input.documentIds.length !== 1) throw new AppError(Code.Refused, F.quickNeedsOne);
  if (new Set(input.documentIds).size !== input.documentIds.length)
    throw new AppError(Code.Refused, F.duplicateDocument);
  const deadline = input.deadline
    ? new Date(input.deadline)
    : new Date(now.getTime() + DEFAULT_DEADLINE_DAYS * 86_400_000);
  if (deadline.getTime() <= now.getTime()) throw new AppError(Code.Refused, F.deadlineInPast);
  await checkRenews(deps, account, input.renewsFlowId);

  const docRows: Document[] = [];
  for (const id of input.documentIds) {
    const row = await ownDocument(deps, account, id);
    if (row.flowId) throw new AppError(Code.Refused, F.documentAlreadyLaunched);
    docRows.push(row);
  }
  const originals = new Map<string, Uint8Array>();
  for (const d of docRows) originals.set(d.id, await blobBytes(deps, d.currentKey));
  const docInfo = new Map(
    docRows.map((d) => [d.id, placementDoc(originals.get(d.id)!, pageSizesOf(d))] as const),
  );
  const parties: PreparedParty[] = [];
  for (const [stepIndex, step] of input.steps.entries())
    for (const [ord, p] of step.parties.entries())
      parties.push(await prepareParty(deps, p, stepIndex, ord, docInfo, parties.length));
  if (parties.reduce((n, p) => n + p.fields.length, 0) > FIELD_LIMITS.perFlow)
    throw new AppError(Code.Refused, F.tooManyFieldsOfFlow);
  const allFields = parties.flatMap((p) => p.fields);
  const keys = new Set<string>();
  for (const p of parties) {
    const key = `${p.kind}|${p.phone}|${p.companyId ?? ''}`;
    if (keys.has(key)) throw new AppError(Code.Refused, F.samePartyTwice);
    keys.add(key);
  }
  const ccs = checkCcList(
    input.cc ?? [],
    [],
    parties.map((p) => p.phone),
  );
  const amountFen = input.amount === undefined ? null : Math.round(input.amount * 100);
  // The company's launch rule: a handler's (or an API key's) flow it applies to is held for approval.
  const launchRule =
    account.ownerType === 1
      ? await launchRuleFor(deps, {
          companyId: account.ownerId,
          userId: session.userId,
          isApiKey: session.via.kind === 'apiKey',
          templateId: origin.templateId ?? null,
          amountFen,
        })
      : null;

  // The footer: a full rewrite is allowed now because nothing is signed yet.
  const flowId = randomUUID();
  const stamped: (ReadyFile & { row: Document; code: string })[] = [];
  for (const d of docRows) {
    const code = newVerificationCode();
    const ready = await readyForSigning(
      deps,
      originals.get(d.id)!,
      code,
      formFieldsOf(allFields, d.id),
      d.name,
    );
    stamped.push({ row: d, code, ...ready });
  }

  const user = await findUserById(deps.db, session.userId);
  const actor = await sessionActor(deps, session, req, account.companyName);
  const search = [input.title, ...docRows.map((d) => d.name)].join('\n').toLowerCase();
  const afterCommit = await deps.db.transaction(async (tx) => {
    const held = { id: flowId, title: input.title, initiatorName: user?.name ?? null };
    if (!(await reserveUnit(tx, deps, account, held)))
      throw new AppError(Code.QuotaExhausted, F.quotaExhausted);
    await q.insertFlow(tx, {
      id: flowId,
      account,
      initiatorUserId: session.userId,
      initiatorName: user?.name ?? null,
      initiatorCompanyName: account.companyName,
      title: input.title,
      message: input.message ?? null,
      isQuick: input.isQuick ?? false,
      stepCount: input.steps.length,
      deadline,
      searchText: search,
      now,
      remindEveryDays: input.remindEveryDays ?? null,
      templateId: origin.templateId ?? null,
      apiKeyId: session.via.kind === 'apiKey' ? session.via.keyId : null,
      amountFen,
      heldForApproval: launchRule !== null,
    });
    for (const p of parties) await q.insertParty(tx, flowId, { ...p, linkType: linkTypeOf(p.kind) });
    // Parties the launcher does not allow to hand their turn over (reassign, issue 29).
    const inputs = input.steps.flatMap((st) => st.parties);
    await forbidReassign(
      tx,
      parties.filter((_, i) => inputs[i]?.allowReassign === false).map((p) => p.id),
    );
    await origin.inLaunch?.(tx, flowId);
    // Issue 29: the contract's term, the flow it renews; the launching user's drafts of these documents done.
    await storeLaunchTerm(tx, flowId, input, now);
    await dropLaunchedDrafts(tx, account, session.userId, input.documentIds);
    await insertFields(
      tx,
      flowId,
      parties.flatMap((p) => p.fields.map((f) => ({ ...f, partyId: p.id }))).map((f, ord) => ({ ...f, ord })),
    );
    await storeCcs(tx, flowId, ccs, now);
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
          hashBefore: s.row.currentSha256,
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
        hashBefore: s.repaired?.key ?? s.row.currentSha256,
        hashAfter: s.sha,
      });
    }
    // Held: the approval request instead of the links; `flow.launched` waits for the approval.
    if (launchRule)
      return requestLaunchApproval(deps, tx, {
        rule: launchRule,
        companyId: account.ownerId,
        requesterUserId: session.userId,
        deadline,
        flow: {
          id: flowId,
          title: input.title,
          amountFen,
          initiatorUserId: session.userId,
          initiatorCompanyName: account.companyName,
        },
        parties: parties.map((p) => ({
          step: p.stepIndex + 1,
          kind: p.kind,
          name: p.name,
          companyName: p.companyName,
        })),
        documents: stamped.map((s) => ({
          documentId: s.row.id,
          version: s.row.version + 1,
          sha256: s.sha,
          blobKey: s.key,
          name: s.row.name,
          pages: s.row.pages,
        })),
        auditActor: actor,
      });
    // Stored with the launch (an outbox): the event exists exactly when the flow does.
    return storeFlowEvent(deps, tx, 'flow.launched', flowId);
  });
  const codes = stamped.map((s) => s.code);
  if (launchRule) {
    await afterCommit();
    return { flowId, status: 'signing', verificationCodes: codes, awaitingApproval: true };
  }
  await askFirstStep(deps, (await findFlow(deps.db, flowId))!);
  await afterCommit();
  return { flowId, status: 'signing', verificationCodes: codes };
}

/** The first step's parties are asked to sign (their links, or automatic signing): a launch sent, or released. */
async function askFirstStep(deps: AppDeps, flow: Flow): Promise<void> {
  for (const p of await partiesOf(deps.db, flow.id)) if (p.stepIndex === 0) await askToSign(deps, flow, p);
}

/**
 * approval's `launchDecided` (in the decision's transaction): approved, the hold is lifted and the flow goes on
 * as a launch does (`flow.launched` stored now; after the commit the first step's links); rejected, the flow
 * ends cancelled with the approver's comment (quota released, the launcher told). Null when the flow was not
 * held and open any more.
 */
export async function answerLaunchDecision(e: LaunchDecided): Promise<(() => Promise<void>) | null> {
  const { deps, tx, flowId } = e;
  if (!e.approved)
    return endFlowIn(deps, tx, flowId, { status: 'cancelled', reason: e.comment, actor: e.actor });
  const flow = await q.releaseHeldFlow(tx, flowId);
  if (!flow) return null;
  const eventAfter = await storeFlowEvent(deps, tx, 'flow.launched', flow);
  return async () => {
    await askFirstStep(deps, flow);
    await eventAfter();
  };
}

/** A file made ready for signing: stored, with its repaired blob and why it has no footer. */
export type ReadyFile = {
  key: string;
  sha: string;
  size: number;
  repaired?: { key: string; problem: string };
  /** why the file goes without the footer (encrypted, or damaged beyond what pdf-lib reads) */
  noFooter: string | null;
};

/**
 * A file as signing starts from it (launch, and a revised document): repaired when damaged, stamped with the
 * verification footer, given the signers' empty form fields, stored.
 */
export async function readyForSigning(
  deps: AppDeps,
  original: Uint8Array,
  code: string,
  formFields: ReturnType<typeof formFieldsOf>,
  name: string,
): Promise<ReadyFile> {
  // Damaged cross-reference data is repaired once, here, before the first signature; the repaired file
  // is kept (a blob the audit trail names) and is what the footer goes on.
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
  // The signers' fields: empty AcroForm fields, one incremental update after the footer and before any
  // signature (automatic signing included), so each signature that fills them is form filling.
  if (formFields.length)
    try {
      bytes = addFormFields(bytes, formFields);
    } catch (err) {
      if (!(err instanceof SignError)) throw err;
      throw new AppError(Code.Refused, F.formFieldsFailed(name));
    }
  return {
    key: await deps.storage.put(bytes),
    sha: blobKeyOf(bytes),
    size: bytes.length,
    repaired: ready ? { key: await deps.storage.put(ready.bytes), problem: ready.problem ?? '' } : undefined,
    noFooter,
  };
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
