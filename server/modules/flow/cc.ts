// Copy recipients (抄送, issue 29): checked and stored at launch (launch.ts calls `checkCcList` before its
// transaction and `storeCcs` inside it), added by the launcher to an open flow (`addCc`), told through the
// flow's own events (`ccOnFlowEvent`, a listener of `flow.event`: launch and each signature for those who
// chose progress, completion for all), each notice with a new READ-ONLY link (`/ccView/<token>`, only the
// hash stored, every earlier link still valid). The link shows the flow (`ccView`) and serves its documents
// (`registerCcDownloads`): the current version while signing, the signed PDF and the audit report once
// completed; a cancelled, declined or expired flow's documents are refused. Nothing here signs or acts.
// SQL: cc-queries.ts; texts: cc-texts.ts.
import type { Actor } from '../../lib/actor.ts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CC_DOWNLOAD_PATH,
  CC_LIMIT,
  type CcInput,
  type CcRecipient,
  type CcView,
  addFlowCc,
  getCcView,
  listCopiedToMe,
  listFlowCc,
  openCopiedFlow,
} from '#contract/calls/cc.ts';
import { registerCall } from '../../http/register-call.ts';
import { CC_VIEW_ROUTE } from '#contract/paths/cc.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { type Exec, dateOf, isoOrNull } from '../../db/sql-helpers.ts';
import { AppError } from '../../http/app-error.ts';
import { sendPdf } from '../../http/send-pdf.ts';
import { appendAudit } from '../audit/index.ts';
import { blobBytes, flowDocuments } from '../document/index.ts';
import { sessionActor, flowAccess, phoneOf } from './access.ts';
import * as cq from './cc-queries.ts';
import { CC, ccNotice } from './cc-texts.ts';
import { ensureAuditReport } from './complete.ts';
import { expireIfDue } from './end.ts';
import type { AfterCommit, FlowEvent } from './hooks.ts';
import { type Flow, findFlow, maskPhone, partiesOf, summaries } from './model.ts';
import { insertMessage } from './queries.ts';
import { auditFlowEvent } from './room.ts';
import { flowRuntimeOf } from './runtime.ts';
import { F } from './texts.ts';

type Ctx = { ip?: string; userAgent?: string | null };

const hashCcCode = (code: string) => createHash('sha256').update(`cc:${code}`).digest('hex');

/**
 * The recipients a launch (or addFlowCc) names, checked: at most CC_LIMIT with those already stored, no phone
 * twice, no signer of the flow (who receives the contract anyway). Refusals 1100 name the recipient.
 */
export function checkCcList(
  list: CcInput[],
  existing: { phone: string }[],
  signerPhones: string[],
): cq.NewCc[] {
  if (list.length + existing.length > CC_LIMIT) throw new AppError(Code.Refused, CC.tooMany(CC_LIMIT));
  const seen = new Set(existing.map((c) => c.phone));
  const signers = new Set(signerPhones);
  return list.map((c) => {
    const name = c.name.trim();
    if (seen.has(c.phone)) throw new AppError(Code.Refused, CC.phoneTwice(name));
    if (signers.has(c.phone)) throw new AppError(Code.Refused, CC.isSigner(name));
    seen.add(c.phone);
    return { id: randomUUID(), name, phone: c.phone, notifyProgress: c.notifyProgress ?? false };
  });
}

/** Stores the launch's recipients in its transaction (before `flow.launched` is stored, which tells them). */
export async function storeCcs(tx: Exec, flowId: string, ccs: cq.NewCc[], now: Date): Promise<void> {
  if (ccs.length) await cq.insertCcs(tx, flowId, ccs, now);
}

type NoticeKind = 'launched' | 'signed' | 'completed';

/** A new read-only link of a recipient (only its hash stored): the SPA path. */
async function newCcLink(deps: AppDeps, ccId: string): Promise<string> {
  const code = randomBytes(24).toString('base64url');
  await cq.insertCcLink(deps.db, hashCcCode(code), ccId, deps.clock.now());
  return `${CC_VIEW_ROUTE}/${code}`;
}

/** One notice to a recipient: a new link, a /message row by phone (person scope), the message itself. */
async function tellCc(
  deps: AppDeps,
  flow: Flow,
  cc: cq.CcRow,
  kind: NoticeKind,
  signer?: string,
): Promise<void> {
  const now = deps.clock.now();
  const link = await newCcLink(deps, cc.id);
  const who = flow.initiatorCompanyName ?? flow.initiatorName ?? '';
  const { title, text } = ccNotice(kind, { title: flow.title, who, signer });
  await insertMessage(deps.db, {
    phone: cc.phone,
    companyId: null,
    kind: 'cc',
    title,
    text,
    flowId: flow.id,
    link,
    now,
  });
  const url = `${deps.config.publicUrl}/#${link}`;
  await deps.messenger.notify({
    to: cc.phone,
    purpose: 'flow:cc',
    text: `${text} ${url}`,
    // The e-mail (to the address of the phone's account, where it has one) of the finished contract and of
    // each signature; the launch notice is texted only.
    mail:
      kind === 'launched'
        ? undefined
        : {
            kind: kind === 'completed' ? 'completed' : 'signed',
            flowTitle: flow.title,
            who: signer ?? who,
            link: url,
          },
  });
}

/** Tells recipients after a commit; a failed notice is logged, never the signer's or launcher's failure. */
async function tellAll(deps: AppDeps, flowId: string, ccs: cq.CcRow[], kind: NoticeKind, signer?: string) {
  const flow = await findFlow(deps.db, flowId);
  if (!flow) return;
  for (const cc of ccs)
    await tellCc(deps, flow, cc, kind, signer).catch((err: unknown) =>
      deps.log.warn({ err, flowId, ccId: cc.id }, 'copy recipient notice not sent'),
    );
}

/**
 * `flow.event` listener: which recipients to tell of this moment, read in the change's transaction, and the
 * notices sent after its commit. Launch and each signature: those who chose progress; completion: all.
 */
export async function ccOnFlowEvent(e: {
  deps: AppDeps;
  tx: Exec;
  event: FlowEvent;
}): Promise<AfterCommit | null> {
  const { deps, tx, event } = e;
  const kind: NoticeKind | null =
    event.type === 'flow.launched'
      ? 'launched'
      : event.type === 'party.signed'
        ? 'signed'
        : event.type === 'flow.completed'
          ? 'completed'
          : null;
  if (!kind) return null;
  const ccs = (await cq.ccsOfFlow(tx, event.flowId)).filter((c) => kind === 'completed' || c.notifyProgress);
  if (!ccs.length) return null;
  const signer = event.party ? (event.party.companyName ?? event.party.name ?? '') : undefined;
  return () => tellAll(deps, event.flowId, ccs, kind, signer);
}

const presentCc = (c: cq.CcRow): CcRecipient => ({
  ccId: c.id,
  name: c.name,
  phoneMasked: maskPhone(c.phone),
  notifyProgress: c.notifyProgress,
  createdAt: dateOf(c.createdAt).toISOString(),
  lastViewedAt: isoOrNull(c.lastViewedAt),
});

/** The launcher's flow (1101 for anyone else, a party included). */
async function launcherFlow(deps: AppDeps, session: Actor, flowId: string): Promise<Flow> {
  const access = await flowAccess(deps, { session }, flowId);
  if (!access.isInitiator) throw new AppError(Code.NotFound, F.flowNotFound);
  return access.flow;
}

/** listFlowCc: the recipients of one of the caller account's flows. */
export async function listCc(
  deps: AppDeps,
  session: Actor,
  flowId: string,
): Promise<{ list: CcRecipient[] }> {
  await launcherFlow(deps, session, flowId);
  return { list: (await cq.ccsOfFlow(deps.db, flowId)).map(presentCc) };
}

/** addFlowCc: one more recipient of an open flow, a `cc_added` entry; told now when they chose progress. */
export async function addCc(
  deps: AppDeps,
  session: Actor,
  flowId: string,
  input: CcInput,
  ctx: Ctx,
): Promise<{ list: CcRecipient[] }> {
  await expireIfDue(deps, flowId);
  const flow = await launcherFlow(deps, session, flowId);
  if (flow.status !== 'signing') throw new AppError(Code.Refused, CC.flowEnded);
  const actor = await sessionActor(deps, session, ctx, flow.initiatorCompanyName);
  const now = deps.clock.now();
  const added = await deps.db.transaction(async (tx) => {
    const existing = await cq.ccsOfFlow(tx, flowId);
    const signerPhones = (await partiesOf(tx, flowId)).map((p) => p.phone);
    const [cc] = checkCcList([input], existing, signerPhones);
    await cq.insertCcs(tx, flowId, [cc], now);
    for (const d of await flowDocuments(tx, flowId))
      await appendAudit(tx, {
        ...actor,
        flowId,
        documentId: d.id,
        event: 'cc_added',
        detail: `${cc.name} ${maskPhone(cc.phone)}${cc.notifyProgress ? ' · progress' : ''}`,
        at: now,
        hashBefore: d.currentSha256,
        hashAfter: d.currentSha256,
      });
    return cc;
  });
  const rows = await cq.ccsOfFlow(deps.db, flowId);
  // A held flow was not sent yet: its recipients hear of it when it is (flow.launched).
  if (added.notifyProgress && !flow.heldForApproval)
    await tellAll(
      deps,
      flowId,
      rows.filter((r) => r.id === added.id),
      'launched',
    );
  return { list: rows.map(presentCc) };
}

/** The recipient and flow a link opens (1312 for an unknown link). */
async function ccOfToken(deps: AppDeps, token: string): Promise<{ cc: cq.CcRow; flow: Flow }> {
  const cc = await cq.ccByLinkHash(deps.db, hashCcCode(token));
  if (!cc) throw new AppError(Code.LinkInvalid, CC.linkInvalid);
  await expireIfDue(deps, cc.flowId);
  return { cc, flow: (await findFlow(deps.db, cc.flowId))! };
}

/** How an audit entry names a copy recipient: their name, marked as a copy recipient. */
const ccActor = (cc: cq.CcRow, ctx: Ctx) => ({
  actor: `${cc.name} (抄送 cc)`,
  actorPhone: cc.phone,
  actorCompany: null,
  ip: ctx.ip ?? null,
  userAgent: ctx.userAgent ?? null,
});

/** Whether the documents are served to recipients: not for a flow that ended without completing. */
const mayDownload = (flow: Flow) => flow.status === 'signing' || flow.status === 'completed';

/** getCcView: the read-only view; a `view` entry and the recipient's last view. */
export async function ccView(deps: AppDeps, token: string, ctx: Ctx): Promise<CcView> {
  const { cc, flow } = await ccOfToken(deps, token);
  const parties = await partiesOf(deps.db, flow.id);
  const docs = await flowDocuments(deps.db, flow.id);
  await cq.markCcViewed(deps.db, cc.id, deps.clock.now());
  await auditFlowEvent(deps, flow.id, 'view', ccActor(cc, ctx), 'copy recipient view');
  const [summary] = await summaries(deps.db, [flow]);
  return {
    ...summary,
    recipientName: cc.name,
    parties: parties.map((p) => ({
      step: p.stepIndex + 1,
      kind: p.kind,
      name: p.kind === 'company' ? null : p.name,
      companyName: p.companyName,
      status: p.status as CcView['parties'][number]['status'],
      signedAt: isoOrNull(p.signedAt),
    })),
    documents: docs.map((d) => ({ documentId: d.id, name: d.name, pages: d.pages })),
    mayDownload: mayDownload(flow),
    hasAuditReport: flow.status === 'completed',
  };
}

/** listCopiedToMe: the flows copied to the logged-in person's phone. */
export async function listCopied(deps: AppDeps, session: Actor, page: { pageNum: number; pageSize: number }) {
  const phone = await phoneOf(deps, session.userId);
  const { list, total } = await cq.copiedPage(deps.db, phone, page);
  const sums = await summaries(deps.db, list);
  return { list: sums.map((s, i) => ({ ...s, ccId: list[i].ccId })), total, ...page };
}

/** openCopiedFlow: a new link for the logged-in person's own recipient row (1101 for another phone's). */
export async function openCopied(deps: AppDeps, session: Actor, ccId: string): Promise<{ link: string }> {
  const cc = await cq.findCc(deps.db, ccId);
  if (!cc || cc.phone !== (await phoneOf(deps, session.userId)))
    throw new AppError(Code.NotFound, F.flowNotFound);
  return { link: await newCcLink(deps, cc.id) };
}

/** The ids of the flows copied to a phone (for the contract centre's "copied to me"). */
export const ccFlowIdsOfPhone = (deps: AppDeps, phone: string) => cq.ccFlowIdsOfPhone(deps.db, phone);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * GET `CC_DOWNLOAD_PATH/<documentId>?ccToken=`: a document of the link's flow (the current version while
 * signing, the signed PDF once completed); `CC_DOWNLOAD_PATH/report?ccToken=`: the audit report of a completed
 * flow. Each download is a `download` entry naming the recipient.
 */
export function registerCcDownloads(app: FastifyInstance, deps: AppDeps): void {
  const ctxOf = (req: FastifyRequest): Ctx => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
  app.get(`${CC_DOWNLOAD_PATH}/:what`, async (req, reply) => {
    const { what } = req.params as { what: string };
    const token = (req.query as Record<string, string | undefined>).ccToken ?? '';
    const { cc, flow } = await ccOfToken(deps, token);
    if (!mayDownload(flow)) throw new AppError(Code.Refused, CC.noDocuments);
    if (what === 'report') {
      if (flow.status !== 'completed') throw new AppError(Code.Refused, CC.reportNotYet);
      const bytes = await ensureAuditReport(deps, flow.id, flowRuntimeOf(deps).reportBuilds);
      await auditFlowEvent(deps, flow.id, 'download', ccActor(cc, ctxOf(req)), 'audit report');
      return sendPdf(reply, bytes, `audit-report-${flow.id.slice(0, 8)}.pdf`);
    }
    const doc = UUID.test(what)
      ? (await flowDocuments(deps.db, flow.id)).find((d) => d.id === what)
      : undefined;
    if (!doc) throw new AppError(Code.NotFound, F.documentNotFound);
    const isSigned = flow.status === 'completed';
    await auditFlowEvent(
      deps,
      flow.id,
      'download',
      ccActor(cc, ctxOf(req)),
      isSigned ? 'signed PDF' : 'current version',
      doc.id,
    );
    return sendPdf(
      reply,
      await blobBytes(deps, doc.currentKey),
      isSigned ? doc.name.replace(/\.pdf$/i, '-signed.pdf') : doc.name,
    );
  });
}

/** The copy-recipient calls and downloads (flowModule.register calls it). */
export function registerCc(app: FastifyInstance, deps: AppDeps): void {
  const ctxOf = (req: FastifyRequest): Ctx => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
  registerCall(app, getCcView, async ({ body, req }) => ccView(deps, body.ccToken, ctxOf(req)));
  registerCall(app, listFlowCc, async ({ body, requireSession }) =>
    listCc(deps, requireSession(), body.flowId),
  );
  registerCall(app, addFlowCc, async ({ body, requireSession, req }) =>
    addCc(deps, requireSession(), body.flowId, body.cc, ctxOf(req)),
  );
  registerCall(app, listCopiedToMe, async ({ body, requireSession }) =>
    listCopied(deps, requireSession(), { pageNum: body.pageNum, pageSize: body.pageSize }),
  );
  registerCall(app, openCopiedFlow, async ({ body, requireSession }) =>
    openCopied(deps, requireSession(), body.ccId),
  );
  registerCcDownloads(app, deps);
}
