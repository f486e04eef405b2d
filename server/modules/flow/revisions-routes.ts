// The calls of revised documents (issue 29, contract/calls/revisions.ts): the launcher's upload, the list, the
// comparison and the GET of one revision's PDF (each download an audit entry). flowModule.register calls it.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Code } from '#contract/codes.ts';
import {
  FLOW_REVISION_PATH,
  compareFlowRevisions,
  listFlowRevisions,
  reviseFlowDocument,
} from '#contract/calls/revisions.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { registerUpload } from '../../http/register-upload.ts';
import { sendPdf } from '../../http/send-pdf.ts';
import { auditDownload, getReader, readerOf } from './documents.ts';
import { R } from './revision-texts.ts';
import * as revisions from './revisions.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The form's text fields as the call's request takes them (userType is checked by registerUpload). */
const zFields = reviseFlowDocument.request.omit({ userType: true });

export function registerRevisions(app: FastifyInstance, deps: AppDeps): void {
  const mb = Math.round(deps.config.uploadLimitBytes / 1024 / 1024);
  registerUpload(
    app,
    reviseFlowDocument,
    { maxFileBytes: deps.config.uploadLimitBytes, tooLarge: R.uploadTooLarge(mb) },
    async ({ fields, file, session }) => {
      const input = zFields.safeParse(fields);
      if (!input.success) throw new AppError(Code.BadRequest, z.prettifyError(input.error));
      if (!file || file.bytes.length === 0) throw new AppError(Code.Refused, R.noFile);
      return revisions.reviseDocument(deps, session, input.data, file, {});
    },
  );

  registerCall(app, listFlowRevisions, async ({ body, session, requireSession }) =>
    revisions.listRevisions(deps, await readerOf(deps, body.roomToken, session, requireSession), body.flowId),
  );

  registerCall(app, compareFlowRevisions, async ({ body, session, requireSession }) =>
    revisions.compareRevisions(deps, await readerOf(deps, body.roomToken, session, requireSession), body),
  );

  app.get(`${FLOW_REVISION_PATH}/:flowId/:revision/:documentId`, async (req, reply) => {
    const { flowId, revision, documentId } = req.params as Record<string, string>;
    const n = Number(revision);
    if (!UUID.test(flowId) || !UUID.test(documentId) || !Number.isInteger(n) || n < 1)
      throw new AppError(Code.NotFound, R.revisionNotFound);
    const reader = await getReader(deps, req);
    const pdf = await revisions.revisionFile(deps, reader, flowId, n, documentId);
    const ctx = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null };
    await auditDownload(deps, reader, ctx, flowId, `revision ${n}`, documentId);
    return sendPdf(reply, pdf.bytes, pdf.filename);
  });
}
