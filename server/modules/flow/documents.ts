// The calls about documents that need the flow: who may read a document once it is launched (its flow's
// readers), its info, the verification page's facts, and the GET downloads (current or original version,
// signed PDF, audit report), each download an audit entry. The document module (below flow) stores and
// versions the files; this file decides who sees them.
import type { Actor } from '../../lib/actor.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AUDIT_REPORT_PATH,
  DOCUMENT_DOWNLOAD_PATH,
  SIGNED_PDF_PATH,
  getDocumentInfo,
  getVerificationInfo,
} from '#contract/calls/document.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { contentDisposition, sendPdf } from '../../http/send-pdf.ts';
import { FIELD_ATTACHMENT_PATH } from '#contract/calls/fields.ts';
import { attachmentOf } from './fields-room.ts';
import { dateOf } from '../../db/sql-helpers.ts';
import { listAudit, verifyChain } from '../audit/index.ts';
import * as documents from '../document/index.ts';
import { lookupSession } from '../session/index.ts';
import { findFlow, findParty } from './model.ts';
import { signaturesOfDocument } from './queries.ts';
import { auditFlowEvent, roomActor, roomOf } from './room.ts';
import { type Reader, flowAccess, sessionActor } from './access.ts';
import { ensureAuditReport } from './complete.ts';
import { flowRuntimeOf } from './runtime.ts';
import { F } from './texts.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => new AppError(Code.NotFound, F.documentNotFound);

/** The reader of a call that takes a roomToken or a session. */
export async function readerOf(
  deps: AppDeps,
  roomToken: string | undefined,
  session: Actor | null,
  requireSession: () => Actor,
): Promise<Reader> {
  if (roomToken) {
    const room = await roomOf(deps, roomToken);
    return { room: { partyId: room.partyId, flowId: room.flowId } };
  }
  return { session: session ?? requireSession() };
}

/**
 * Who may read a document: the uploading account (person, or a member of the uploading company), or, once
 * launched, whoever may read its flow (flowAccess). Others get NotFound, as for an unknown id.
 */
async function documentAccess(deps: AppDeps, reader: Reader, documentId: string) {
  const doc = await documents.findDocument(deps.db, documentId);
  if (!doc) throw notFound();
  if ('session' in reader) {
    try {
      const account = await documents.accountOf(deps, reader.session);
      if (doc.ownerType === account.ownerType && doc.ownerId === account.ownerId)
        return { doc, flowStatus: null as string | null };
    } catch (err) {
      // Expected: the session may not act for its company now (a refusal, an AppError): it is then no owner
      // and falls through to the flow's participants. Anything else (the database) is a failure.
      if (!(err instanceof AppError)) throw err;
    }
  }
  if (!doc.flowId) throw notFound();
  try {
    const access = await flowAccess(deps, reader, doc.flowId);
    return { doc, flowStatus: access.flow.status };
  } catch (err) {
    // Expected: flowAccess refuses (an AppError) a reader who is no participant; the document then does not
    // exist for them. Anything else (the database) is a failure.
    if (err instanceof AppError) throw notFound();
    throw err;
  }
}

/** A reader of a download: a session, or a room with its token (the audit entry names the room's signer). */
export type DownloadReader =
  | { session: Actor }
  | { room: { partyId: string; flowId: string; token: string } };

export async function getReader(deps: AppDeps, req: FastifyRequest): Promise<DownloadReader> {
  const roomToken = (req.query as Record<string, string | undefined>).roomToken;
  if (roomToken) {
    const room = await roomOf(deps, roomToken);
    return { room: { partyId: room.partyId, flowId: room.flowId, token: roomToken } };
  }
  const lookup = await lookupSession(deps, req);
  if (lookup.state !== 'live') throw new AppError(Code.NotLoggedIn, { en: 'not logged in', zh: '未登录' });
  return { session: lookup.session };
}

type Ctx = { ip?: string; userAgent?: string | null };

export async function auditDownload(
  deps: AppDeps,
  reader: DownloadReader,
  ctx: Ctx,
  flowId: string,
  what: string,
  documentId?: string,
) {
  let actor: Awaited<ReturnType<typeof sessionActor>>;
  if ('session' in reader) actor = await sessionActor(deps, reader.session, ctx);
  else {
    const room = await roomOf(deps, reader.room.token);
    actor = await roomActor(deps, room, (await findParty(deps.db, room.partyId))!, ctx);
  }
  await auditFlowEvent(deps, flowId, 'download', actor, what, documentId);
}

/** A PDF to send: its bytes and the file name the download offers. */
export type PdfDownload = { bytes: Uint8Array; filename: string };

/**
 * A document's current (or original) version, for whoever may read it (documentAccess); once launched, the
 * download is an audit entry of its flow.
 */
export async function downloadDocument(
  deps: AppDeps,
  reader: DownloadReader,
  documentId: string,
  isOriginal: boolean,
  ctx: Ctx,
): Promise<PdfDownload> {
  if (!UUID.test(documentId)) throw notFound();
  const { doc } = await documentAccess(deps, reader, documentId);
  const bytes = await documents.blobBytes(deps, isOriginal ? doc.originalKey : doc.currentKey);
  if (doc.flowId)
    await auditDownload(deps, reader, ctx, doc.flowId, isOriginal ? 'original' : 'current version', doc.id);
  return { bytes, filename: doc.name };
}

/** The signed PDF of a document of a completed flow (1100 before completion), an audit entry. */
export async function downloadSignedPdf(
  deps: AppDeps,
  reader: DownloadReader,
  flowId: string,
  documentId: string,
  ctx: Ctx,
): Promise<PdfDownload> {
  if (!UUID.test(flowId) || !UUID.test(documentId)) throw notFound();
  const access = await flowAccess(deps, reader, flowId);
  if (access.flow.status !== 'completed') throw new AppError(Code.Refused, F.notCompleted);
  const doc = await documents.findDocument(deps.db, documentId);
  if (!doc || doc.flowId !== flowId) throw notFound();
  await auditDownload(deps, reader, ctx, flowId, 'signed PDF', doc.id);
  return {
    bytes: await documents.blobBytes(deps, doc.currentKey),
    filename: doc.name.replace(/\.pdf$/i, '-signed.pdf'),
  };
}

/** The audit report of a completed flow (built once, kept), an audit entry. */
export async function downloadAuditReport(
  deps: AppDeps,
  reader: DownloadReader,
  flowId: string,
  ctx: Ctx,
): Promise<PdfDownload> {
  if (!UUID.test(flowId)) throw notFound();
  const access = await flowAccess(deps, reader, flowId);
  if (access.flow.status !== 'completed') throw new AppError(Code.Refused, F.notCompleted);
  const bytes = await ensureAuditReport(deps, flowId, flowRuntimeOf(deps).reportBuilds);
  await auditDownload(deps, reader, ctx, flowId, 'audit report');
  return { bytes, filename: `audit-report-${flowId.slice(0, 8)}.pdf` };
}

/**
 * GET `FIELD_ATTACHMENT_PATH/<fieldId>` (issue 28): an attachment a signer uploaded, for whoever may read its
 * flow (the launcher's account, its parties, a room of one of its parties with ?roomToken=); 1101 for anyone
 * else, as for a field that does not exist. Each download is an audit entry.
 */
export function registerFieldDownloads(app: FastifyInstance, deps: AppDeps): void {
  app.get(`${FIELD_ATTACHMENT_PATH}/:fieldId`, async (req, reply) => {
    const { fieldId } = req.params as { fieldId: string };
    const gone = () => new AppError(Code.NotFound, F.fieldNotFound);
    if (!UUID.test(fieldId)) throw gone();
    const reader = await getReader(deps, req);
    const found = await attachmentOf(deps, fieldId);
    if (!found) throw gone();
    try {
      await flowAccess(deps, reader, found.field.flowId);
    } catch (err) {
      if (err instanceof AppError) throw gone();
      throw err;
    }
    await auditDownload(
      deps,
      reader,
      { ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
      found.field.flowId,
      `attachment ${found.field.label}`,
      found.field.documentId,
    );
    return reply
      .header('content-type', found.field.attachmentType ?? 'application/octet-stream')
      .header(
        'content-disposition',
        contentDisposition('attachment', found.field.attachmentName ?? 'attachment'),
      )
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(found.bytes));
  });
}

/** Registers the document calls that go through the flow (flowModule.register calls it). */
export function registerDocumentReads(app: FastifyInstance, deps: AppDeps): void {
  registerCall(app, getDocumentInfo, async ({ body, session, requireSession }) => {
    const reader = await readerOf(deps, body.roomToken, session, requireSession);
    const { doc, flowStatus } = await documentAccess(deps, reader, body.documentId);
    return documents.presentDocument(doc, flowStatus);
  });

  registerCall(app, getVerificationInfo, async ({ body }) => {
    const code = body.code.toUpperCase();
    const doc = await documents.findByVerificationCode(deps.db, code);
    if (!doc?.flowId) return null;
    const flow = (await findFlow(deps.db, doc.flowId))!;
    const sigs = await signaturesOfDocument(deps.db, doc.id);
    const chain = (await listAudit(deps.db, flow.id)).filter((e) => e.documentId === doc.id);
    return {
      verificationCode: code,
      documentName: doc.name,
      flowTitle: flow.title,
      flowStatus: flow.status,
      pages: doc.pages,
      launchedSha256: doc.launchedSha256 ?? doc.currentSha256,
      currentSha256: doc.currentSha256,
      launchedAt: dateOf(flow.createdAt).toISOString(),
      completedAt: flow.completedAt ? dateOf(flow.completedAt).toISOString() : null,
      signatures: sigs.map((s) => ({
        signerName: s.kind === 'company' ? (s.companyName ?? '') : (s.signedByName ?? s.name ?? ''),
        companyName: s.kind === 'company' ? s.companyName : null,
        signedAt: dateOf(s.signedAt).toISOString(),
        sha256: s.sha256,
      })),
      isAuditChainIntact: verifyChain(chain).isIntact,
    };
  });

  const ctxOf = (req: FastifyRequest): Ctx => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

  app.get(`${DOCUMENT_DOWNLOAD_PATH}/:documentId`, async (req, reply) => {
    const { documentId } = req.params as { documentId: string };
    if (!UUID.test(documentId)) throw notFound();
    const isOriginal = (req.query as Record<string, string>).version === 'original';
    const pdf = await downloadDocument(deps, await getReader(deps, req), documentId, isOriginal, ctxOf(req));
    return sendPdf(reply, pdf.bytes, pdf.filename);
  });

  app.get(`${SIGNED_PDF_PATH}/:flowId/:documentId`, async (req, reply) => {
    const { flowId, documentId } = req.params as { flowId: string; documentId: string };
    if (!UUID.test(flowId) || !UUID.test(documentId)) throw notFound();
    const pdf = await downloadSignedPdf(deps, await getReader(deps, req), flowId, documentId, ctxOf(req));
    return sendPdf(reply, pdf.bytes, pdf.filename);
  });

  app.get(`${AUDIT_REPORT_PATH}/:flowId`, async (req, reply) => {
    const { flowId } = req.params as { flowId: string };
    if (!UUID.test(flowId)) throw notFound();
    const pdf = await downloadAuditReport(deps, await getReader(deps, req), flowId, ctxOf(req));
    return sendPdf(reply, pdf.bytes, pdf.filename);
  });
}
