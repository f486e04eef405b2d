// Void by agreement (作废/解约, issue 29). A completed contract is voided only by a rescission agreement the
// same parties sign: the launching account asks with a reason, the agreement is drafted here as a PDF (CJK and
// English: the original's title, flow id, parties, completion date, the SHA-256 of each signed document, the
// reason; one signature box per party) and launched through `launch` (same checks, quota, approvals, intent
// checks) to the original's parties in the same steps and order, linked to the original in the launch's
// transaction (`flows.rescinds_flow_id`; a partial unique index keeps one open per contract). When it
// completes, `voidRescinded` (in the completion's transaction) marks the original voided, appends a `voided`
// entry to each of its documents' audit chains and stores the `flow.voided` event. Nothing is deleted.
import type { Actor } from '../../lib/actor.ts';
import type { FastifyInstance } from 'fastify';
import {
  type RescissionFlowRef,
  type RescissionNote,
  getRescission,
  startRescission,
} from '#contract/calls/rescission.ts';
import { registerCall } from '../../http/register-call.ts';
import type { PartyInput } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import { dateOf, isoOrNull } from '../../db/sql-helpers.ts';
import { AppError } from '../../http/app-error.ts';
import { beijingMinute } from '../../lib/beijing-time.ts';
import { TextReport } from '../../pdf/compose/text-report.ts';
import { appendAudit } from '../audit/index.ts';
import { HANDLING } from '../company/index.ts';
import { accountOf, flowDocuments, launchedBySha256, uploadDocument } from '../document/index.ts';
import { type EventsAfterCommit, nothingAfterCommit, storeFlowEvent } from './events.ts';
import { launch } from './launch.ts';
import { type Flow, type Party, appliesOf, findFlow, partiesOf } from './model.ts';
import { flowAccess, sessionActor } from './access.ts';
import { linkRescission, markVoided, rescissionsOf } from './rescission-queries.ts';
import { R } from './rescission-texts.ts';

/** Signature boxes on the drafted agreement, in points (company 42 x 42 mm, person 36 x 18 mm). */
const BOX = { company: { w: 119, h: 119 }, person: { w: 102, h: 51 } } as const;

const partyName = (p: Party) =>
  p.kind === 'company'
    ? `${p.companyName ?? '—'}${p.signedByName || p.name ? ` · 经办人 Handler: ${p.signedByName ?? p.name}` : ''}`
    : (p.signedByName ?? p.name ?? '—');

const ref = (f: Flow): RescissionFlowRef => ({
  flowId: f.id,
  title: f.title,
  status: f.status,
  createdAt: dateOf(f.createdAt).toISOString(),
  completedAt: isoOrNull(f.completedAt),
});

/** The agreement as a PDF, and where each party (in the original's order) signs it. */
async function draftAgreement(
  original: Flow,
  parties: Party[],
  docs: { name: string; currentSha256: string }[],
  reason: string,
): Promise<{ bytes: Uint8Array; boxes: { page: number; rect: [number, number, number, number] }[] }> {
  const r = await TextReport.create({ wrap: 'words', title: '解除协议 / Rescission agreement' });
  r.line('解除协议 / Rescission agreement', { size: 18 });
  r.gap(8);
  r.line(`原合同 Original contract: 《${original.title}》`, { size: 11 });
  r.line(`流程编号 Flow id: ${original.id}`, { size: 9 });
  r.line(
    `完成日期 Completed on: ${beijingMinute(dateOf(original.completedAt))} (北京时间 Beijing time, UTC+8)`,
    { size: 9 },
  );
  r.gap();
  r.line('签署方 Parties:', { size: 11 });
  for (const [i, p] of parties.entries())
    r.line(
      `${i + 1}. 第 ${p.stepIndex + 1} 步 Step ${p.stepIndex + 1} · ${p.kind === 'company' ? '企业 Company' : '个人 Person'}: ${partyName(p)}`,
      { size: 9, indent: 12 },
    );
  r.gap();
  r.line('已签署文件及其 SHA-256 / Signed documents and their SHA-256:', { size: 11 });
  for (const d of docs) {
    r.line(d.name, { size: 9, indent: 12 });
    r.line(d.currentSha256, { size: 8, font: 'mono', indent: 12 });
  }
  r.gap();
  r.line('解除原因 Reason:', { size: 11 });
  r.line(reason, { size: 9, indent: 12 });
  r.gap();
  r.line(
    '各方一致同意解除上述合同：自本协议经各方签署完成之日起，原合同作废，不再履行。原合同及其已签署文件不被删除或修改，仍可下载和验证，验证结果将注明本协议。',
    { size: 10 },
  );
  r.line(
    'The parties agree to rescind the contract above: from the day every party has signed this agreement, the original ' +
      'contract is void and no longer performed. The original and its signed documents are neither deleted nor ' +
      'changed; they stay downloadable and verifiable, and their verification names this agreement.',
    { size: 10 },
  );
  r.gap(10);
  r.line('签署 Signatures:', { size: 11 });
  const boxes: { page: number; rect: [number, number, number, number] }[] = [];
  for (const [i, p] of parties.entries()) {
    r.line(`${i + 1}. ${partyName(p)}`, { size: 9 });
    const size = BOX[p.kind];
    const box = r.box(size.h);
    const [x1, y1] = box.rect;
    boxes.push({ page: box.pageIndex + 1, rect: [x1, y1, x1 + size.w, y1 + size.h] });
  }
  return { bytes: await r.save(), boxes };
}

/** The original's party as a party of the rescission: the same signer, seal needs, intent and step. */
function partyInputOf(
  p: Party,
  position: { documentId: string; page: number; rect: [number, number, number, number] },
): PartyInput {
  const applies = appliesOf(p);
  const intent = (p.intent ?? 'sms') as 'sms' | 'face' | 'password';
  if (p.kind === 'person')
    return {
      kind: 'person',
      name: p.signedByName ?? p.name ?? '—',
      phone: p.phone,
      intent,
      positions: [position],
    };
  return {
    kind: 'company',
    ...(p.companyId ? { companyId: p.companyId } : { companyName: p.companyName ?? '', inviteToOpen: true }),
    operatorPhone: p.phone,
    ...(p.name ? { operatorName: p.name } : {}),
    intent,
    applies,
    positions: [position],
  };
}

/** Why the flow cannot be voided now (null: it can), its rescissions read already. */
function refusal(original: Flow, rescissions: Flow[]) {
  if (original.rescindsFlowId) return R.isRescission;
  if (original.voidedAt) return R.alreadyVoided;
  if (original.status !== 'completed') return R.notCompleted;
  if (rescissions.some((f) => f.status === 'signing')) return R.alreadyOpen;
  return null;
}

/** A unique violation of the one-open-rescission index (a parallel request won), however the driver wraps it. */
function isOpenTwice(err: unknown): boolean {
  for (let e = err as { message?: unknown; constraint?: unknown; cause?: unknown } | undefined; e; ) {
    if (e.constraint === 'flows_open_rescission' || String(e.message ?? '').includes('flows_open_rescission'))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** The launching account asks to void a completed contract: the agreement drafted and launched. */
export async function start(
  deps: AppDeps,
  session: Actor,
  input: { flowId: string; reason: string },
  req: { ip?: string; userAgent?: string | null },
): Promise<{ flowId: string; verificationCodes: string[] }> {
  const { flow: original, isInitiator } = await flowAccess(deps, { session }, input.flowId);
  const account = await accountOf(deps, session, HANDLING);
  if (!isInitiator || account.ownerType !== original.ownerType || account.ownerId !== original.ownerId)
    throw new AppError(Code.Refused, R.onlyLauncher);
  const refused = refusal(original, await rescissionsOf(deps.db, original.id));
  if (refused) throw new AppError(Code.Refused, refused);
  const parties = await partiesOf(deps.db, original.id);
  const docs = await flowDocuments(deps.db, original.id);
  const draft = await draftAgreement(original, parties, docs, input.reason);
  const doc = await uploadDocument(deps, session, {
    bytes: draft.bytes,
    filename: R.fileName(original.title),
  });
  const steps: { parties: PartyInput[] }[] = Array.from({ length: original.stepCount }, () => ({
    parties: [],
  }));
  for (const [i, p] of parties.entries())
    steps[p.stepIndex].parties.push(partyInputOf(p, { documentId: doc.documentId, ...draft.boxes[i] }));
  const actor = await sessionActor(deps, session, req, account.companyName);
  try {
    const launched = await launch(
      deps,
      session,
      {
        userType: session.userType,
        title: R.title(original.title),
        message: input.reason,
        documentIds: [doc.documentId],
        steps,
        isQuick: false,
      } as Parameters<typeof launch>[2],
      req,
      {
        inLaunch: async (tx, flowId) => {
          await linkRescission(tx, flowId, original.id);
          for (const d of docs)
            await appendAudit(tx, {
              ...actor,
              flowId: original.id,
              documentId: d.id,
              event: 'rescission_requested',
              detail: R.requestedDetail(flowId, input.reason),
              at: deps.clock.now(),
              hashBefore: d.currentSha256,
              hashAfter: d.currentSha256,
            });
        },
      },
    );
    return { flowId: launched.flowId, verificationCodes: launched.verificationCodes };
  } catch (err) {
    if (isOpenTwice(err)) throw new AppError(Code.Refused, R.alreadyOpen);
    throw err;
  }
}

/** A flow's void-by-agreement state for its readers (getRescission). */
export async function rescissionState(deps: AppDeps, session: Actor, flowId: string) {
  const { flow, isInitiator } = await flowAccess(deps, { session }, flowId);
  const history = await rescissionsOf(deps.db, flow.id);
  const rescinds = flow.rescindsFlowId ? await findFlow(deps.db, flow.rescindsFlowId) : undefined;
  const voidedBy = flow.voidedByFlowId ? await findFlow(deps.db, flow.voidedByFlowId) : undefined;
  const open = history.find((f) => f.status === 'signing');
  return {
    rescinds: rescinds ? ref(rescinds) : null,
    voidedAt: isoOrNull(flow.voidedAt),
    voidedBy: voidedBy ? ref(voidedBy) : null,
    open: open ? ref(open) : null,
    history: history.map(ref),
    canStart: isInitiator && refusal(flow, history) === null,
  };
}

/**
 * Completion's step for a rescission agreement (in the completion's transaction, `rescission` as completed):
 * the original is voided, each of its documents' chains gets a `voided` entry, and `flow.voided` is stored.
 */
export async function voidRescinded(
  deps: AppDeps,
  tx: Exec,
  rescission: Flow,
  now: Date,
): Promise<EventsAfterCommit> {
  if (!rescission.rescindsFlowId) return nothingAfterCommit;
  const original = await markVoided(tx, rescission.rescindsFlowId, rescission.id, now);
  if (!original) return nothingAfterCommit;
  for (const d of await flowDocuments(tx, original.id))
    await appendAudit(tx, {
      actor: 'platform',
      flowId: original.id,
      documentId: d.id,
      event: 'voided',
      detail: R.voidedDetail(rescission.id, rescission.title),
      at: now,
      hashBefore: d.currentSha256,
      hashAfter: d.currentSha256,
    });
  return storeFlowEvent(deps, tx, 'flow.voided', original, { reason: rescission.message });
}

/** What a verification of this flow's signed document adds: its rescission, when it is voided. */
export async function rescissionNoteOf(deps: AppDeps, flowId: string): Promise<RescissionNote | null> {
  const flow = await findFlow(deps.db, flowId);
  if (!flow?.voidedAt || !flow.voidedByFlowId) return null;
  const by = await findFlow(deps.db, flow.voidedByFlowId);
  if (!by) return null;
  return {
    flowId: flow.id,
    title: flow.title,
    voidedAt: dateOf(flow.voidedAt).toISOString(),
    rescissionFlowId: by.id,
    rescissionTitle: by.title,
    rescissionSha256: (await flowDocuments(deps.db, by.id)).map((d) => d.currentSha256),
  };
}

/** The rescission of the voided contract whose signed document is the file with this SHA-256, or null. */
export async function rescissionNoteOfFile(deps: AppDeps, sha256: string): Promise<RescissionNote | null> {
  for (const d of await launchedBySha256(deps.db, sha256)) {
    const note = d.flowId ? await rescissionNoteOf(deps, d.flowId) : null;
    if (note) return note;
  }
  return null;
}

/** The calls of contract/calls/rescission.ts (registered by module.ts). */
export function registerRescissionCalls(app: FastifyInstance, deps: AppDeps): void {
  registerCall(app, startRescission, async ({ body, requireSession, req }) =>
    start(deps, requireSession(), body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }),
  );
  registerCall(app, getRescission, async ({ body, requireSession }) =>
    rescissionState(deps, requireSession(), body.flowId),
  );
}
