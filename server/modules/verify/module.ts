import type { MultipartFile } from '@fastify/multipart';
import { Code } from '#contract/codes.ts';
import { callPath, zEnvelope } from '#contract/envelope.ts';
import {
  ROOT_CERT_PATH,
  VERIFIED_PDF_PATH,
  VERIFY_REPORT_PATH,
  checkPdf,
  getVerifyReport,
  verifyByCode,
} from '#contract/calls/verify.ts';
import { AppError } from '../../http/app-error.ts';
import { checkUserType, registerCall } from '../../http/register-call.ts';
import { contentDisposition, sendPdf } from '../../http/send-pdf.ts';
import { VerifyErrorCode } from '../../pdf/verify/errors.ts';
import type { ServerModule } from '../server-module.ts';
import { renderReportPdf } from './report-pdf.ts';
import * as verify from './service.ts';
import { V } from './texts.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_MULTIPART = {
  en: 'checkPdf takes multipart/form-data with the PDF in the field "file"',
  zh: 'checkPdf 需要 multipart/form-data，PDF 文件放在 file 字段中',
};

/** A file name safe in a Content-Disposition header (RFC 6266: ASCII fallback plus UTF-8). */
/**
 * Public verification (contract/calls/verify.ts): checkPdf (multipart upload), verifyByCode (a platform
 * document by its footer code), getVerifyReport, and GET downloads of kept reports (JSON, PDF) and of the
 * platform document the verification page shows. None needs a session: anyone holding a file may check it.
 */
export const verifyModule: ServerModule = {
  name: 'verify',
  register(app, deps) {
    // Not awaited here: it waits for the CA, which a fresh start makes while the server already listens;
    // the routes that need it wait instead. Bad settings or trust anchors still throw here, at the start.
    const starting = verify.createVerifyService(deps);
    starting.catch(() => {}); // each request awaiting it reports a failure itself
    app.addHook('onClose', async () => {
      const svc = await starting.catch(() => null);
      await svc?.pool.close();
    });

    // registerUpload always needs a session; checking a file is public, so this route reads the form itself,
    // after the per-address limit and with the verification size limit.
    app.route({
      method: 'POST',
      url: callPath(checkPdf),
      schema: {
        operationId: checkPdf.name,
        summary: checkPdf.summary,
        tags: ['public', 'upload'],
        consumes: ['multipart/form-data'],
        response: { 200: zEnvelope(checkPdf.response) },
      },
      handler: async (req) => {
        if (!req.isMultipart()) {
          checkUserType(req.body);
          throw new AppError(Code.BadRequest, NOT_MULTIPART);
        }
        const svc = await starting;
        await verify.checkRate(deps, svc, req.ip);
        const fields: Record<string, string> = {};
        let file: { bytes: Uint8Array; filename: string } | null = null;
        try {
          for await (const part of req.parts({ limits: { fileSize: svc.settings.maxBytes, files: 1 } })) {
            if (part.type === 'field') {
              if (typeof part.value === 'string') fields[part.fieldname] = part.value;
            } else if (part.fieldname !== 'file' || file) part.file.resume();
            else file = await readPart(part);
          }
        } catch (err) {
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw verify.refusalFor(svc, VerifyErrorCode.TooLarge);
          throw err;
        }
        const userType = fields.userType?.trim() ? Number(fields.userType) : undefined;
        checkUserType({ userType });
        if (!file) throw new AppError(Code.BadRequest, V.noFile);
        if (file.bytes.length > svc.settings.maxBytes) throw verify.refusalFor(svc, VerifyErrorCode.TooLarge);
        const data = await verify.verifyUpload(deps, svc, file);
        return { code: Code.Ok, msg: 'success', data };
      },
    });

    registerCall(app, verifyByCode, async ({ body, req }) => {
      const svc = await starting;
      await verify.checkRate(deps, svc, req.ip);
      return verify.verifyByCode(deps, svc, body.code);
    });

    registerCall(app, getVerifyReport, async ({ body }) => {
      const kept = await verify.keptReport(deps, body.reportId);
      return kept ? { document: kept.document, result: kept.result } : null;
    });

    app.get(`${VERIFY_REPORT_PATH}/:file`, { schema: { hide: true } }, async (req, reply) => {
      const { file } = req.params as { file: string };
      const m = /^(.+)\.(json|pdf)$/.exec(file);
      if (!m || !UUID.test(m[1])) throw new AppError(Code.NotFound, V.reportNotFound);
      const kept = await verify.keptReport(deps, m[1]);
      if (!kept) throw new AppError(Code.NotFound, V.reportNotFound);
      const base = `verification-report-${kept.id.slice(0, 8)}`;
      reply.header('cache-control', 'no-store');
      if (m[2] === 'json') {
        const json = JSON.stringify({ document: kept.document, ...kept.result }, null, 2);
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', contentDisposition('attachment', `${base}.json`))
          .send(json);
      }
      const pdf = await renderReportPdf(
        kept.result,
        kept.document,
        `${deps.config.publicUrl}${ROOT_CERT_PATH}`,
      );
      return sendPdf(reply, pdf, `${base}.pdf`);
    });

    // The code printed on every page is the capability (80 random bits): whoever holds the paper may see
    // the platform's current copy to compare it with.
    app.get(`${VERIFIED_PDF_PATH}/:code`, { schema: { hide: true } }, async (req, reply) => {
      const { code } = req.params as { code: string };
      if (code.length < 4 || code.length > 40) throw new AppError(Code.NotFound, V.documentNotFound);
      const svc = await starting;
      await verify.checkRate(deps, svc, req.ip);
      const found = await verify.platformDocument(deps, code);
      if (!found) throw new AppError(Code.NotFound, V.documentNotFound);
      return sendPdf(reply, found.bytes, found.document.documentName, 'inline');
    });
  },
};

async function readPart(part: MultipartFile): Promise<{ bytes: Uint8Array; filename: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  // @fastify/multipart stops at the limit and marks the stream truncated (when it does not throw).
  if (part.file.truncated)
    throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
  const buf = Buffer.concat(chunks);
  return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), filename: part.filename ?? '' };
}
