import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  BULK_LIMITS,
  BULK_RESULTS_PATH,
  BULK_SHEET_PATH,
  checkBulkSend,
  getBulkSend,
  listBulkSends,
  startBulkSend,
} from '#contract/calls/bulk.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { registerUpload } from '../../http/register-upload.ts';
import { type Lang, langOf } from '../../http/texts.ts';
import type { Actor } from '../../lib/actor.ts';
import type { ServerModule } from '../server-module.ts';
import { lookupSession } from '../session/index.ts';
import * as q from './queries.ts';
import { sendBatch } from './send.ts';
import * as bulk from './service.ts';
import { B } from './texts.ts';

const zId = z.uuid();

/** A GET download's caller (session cookie) and language (`?lang=zh|en`, else Accept-Language). */
async function downloader(
  deps: AppDeps,
  req: FastifyRequest,
): Promise<{ actor: Actor; lang: Lang; id: string }> {
  const { id } = req.params as { id: string };
  if (!zId.safeParse(id).success) throw new AppError(Code.NotFound, B.bulkNotFound);
  const lookup = await lookupSession(deps, req);
  if (lookup.state !== 'live') throw new AppError(Code.NotLoggedIn, { en: 'not logged in', zh: '未登录' });
  const asked = (req.query as { lang?: string }).lang;
  const lang: Lang = asked === 'zh' || asked === 'en' ? asked : langOf(req);
  return { actor: lookup.session, lang, id };
}

function sendXlsx(reply: FastifyReply, file: { bytes: Buffer; name: string }) {
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .header('cache-control', 'no-store')
    .send(file.bytes);
}

/** Bulk sending (issue 28): sheet, check, start, progress, results; the job that sends. */
export const bulkModule: ServerModule = {
  name: 'bulk',
  register(app, deps) {
    registerUpload(
      app,
      checkBulkSend,
      { maxFileBytes: BULK_LIMITS.fileBytes, tooLarge: B.fileTooLarge(BULK_LIMITS.fileBytes / 1024 / 1024) },
      async ({ fields, file, session, lang }) => {
        const templateId = zId.safeParse(fields.templateId);
        if (!templateId.success) throw new AppError(Code.BadRequest, 'templateId: not a valid id');
        if (!file || file.bytes.length === 0) throw new AppError(Code.BadRequest, B.fileRequired);
        return bulk.checkUpload(
          deps,
          session,
          { templateId: templateId.data, bytes: file.bytes, fileName: file.filename || 'sheet' },
          lang,
        );
      },
    );
    registerCall(app, startBulkSend, async ({ body, requireSession }) =>
      bulk.start(deps, requireSession(), body.bulkId, body.onlyGood),
    );
    registerCall(app, getBulkSend, async ({ body, requireSession, lang }) =>
      bulk.get(deps, requireSession(), body, lang),
    );
    registerCall(app, listBulkSends, async ({ body, requireSession }) =>
      bulk.list(deps, requireSession(), body),
    );
    // The sheet to fill for a template, and a batch's results: GETs with the session cookie, the owning
    // account only (others 1101 as for an unknown id).
    app.get(`${BULK_SHEET_PATH}/:id`, async (req, reply) => {
      const { actor, lang, id } = await downloader(deps, req);
      return sendXlsx(reply, await bulk.sheetOfTemplate(deps, actor, id, lang));
    });
    app.get(`${BULK_RESULTS_PATH}/:id`, async (req, reply) => {
      const { actor, lang, id } = await downloader(deps, req);
      return sendXlsx(reply, await bulk.resultsSheet(deps, actor, id, lang));
    });
  },
  jobs: [
    {
      // One batch's rows, about a minute at a time (send.ts); retried after a failure or a killed instance,
      // which resumes from the rows' own states.
      name: bulk.SEND_JOB,
      singleton: true,
      retryLimit: 20,
      retryDelaySeconds: 30,
      async handler(job: { data: { bulkId: string } }, deps) {
        const next = await sendBatch(deps, job.data.bulkId);
        if (next)
          await deps.jobs.send(bulk.SEND_JOB, job.data, {
            singletonKey: job.data.bulkId,
            startAfter: next.again,
          });
      },
    },
    {
      // Every minute: a batch still sending whose job is gone (retries ran out) gets one again.
      name: 'bulk.sweep',
      cron: '* * * * *',
      retryLimit: 0,
      async handler(_job, deps) {
        for (const bulkId of await q.sendingBulkIds(deps.db))
          await deps.jobs.send(bulk.SEND_JOB, { bulkId }, { singletonKey: bulkId });
      },
    },
  ],
};
