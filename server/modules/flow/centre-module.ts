// The contract centre's registration (issue 29): its calls, the zip's GET and the zip job; flowModule
// (module.ts) calls registerCentre and lists centreJobs.
import { z } from 'zod';
import * as C from '#contract/calls/centre.ts';
import { Code } from '#contract/codes.ts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { contentDisposition } from '../../http/send-pdf.ts';
import type { ServerModule } from '../server-module.ts';
import { lookupSession } from '../session/index.ts';
import * as centre from './centre.ts';
import { CT } from './centre-texts.ts';

const zUuid = z.uuid();

export function registerCentre(app: FastifyInstance, deps: AppDeps): void {
  registerCall(app, C.searchContracts, async ({ body, requireSession }) =>
    centre.searchContracts(deps, requireSession(), body),
  );
  registerCall(app, C.getCentreLabels, async ({ requireSession }) =>
    centre.centreLabels(deps, requireSession()),
  );
  registerCall(app, C.saveCentreTag, async ({ body, requireSession }) =>
    centre.saveTag(deps, requireSession(), body),
  );
  registerCall(app, C.deleteCentreTag, async ({ body, requireSession }) =>
    centre.deleteLabel(deps, requireSession(), 'tags', body.tagId),
  );
  registerCall(app, C.saveCentreFolder, async ({ body, requireSession }) =>
    centre.saveFolder(deps, requireSession(), body),
  );
  registerCall(app, C.deleteCentreFolder, async ({ body, requireSession }) =>
    centre.deleteLabel(deps, requireSession(), 'folders', body.folderId),
  );
  registerCall(app, C.tagContracts, async ({ body, requireSession }) =>
    centre.tagContracts(deps, requireSession(), body),
  );
  registerCall(app, C.moveContracts, async ({ body, requireSession }) =>
    centre.moveContracts(deps, requireSession(), body),
  );
  registerCall(app, C.saveCentreView, async ({ body, requireSession }) =>
    centre.saveView(deps, requireSession(), body),
  );
  registerCall(app, C.deleteCentreView, async ({ body, requireSession }) =>
    centre.deleteView(deps, requireSession(), body.viewId),
  );
  registerCall(app, C.startContractsZip, async ({ body, requireSession }) =>
    centre.startZip(deps, requireSession(), body.flowIds),
  );
  registerCall(app, C.getContractsZip, async ({ body, requireSession }) =>
    centre.getZip(deps, requireSession(), body.zipId),
  );
  // GET with the session cookie: the zip's bytes, for the user who made it (others 1101).
  app.get(`${C.CONTRACTS_ZIP_PATH}/:zipId`, async (req, reply) => {
    const { zipId } = req.params as { zipId: string };
    if (!zUuid.safeParse(zipId).success) throw new AppError(Code.NotFound, CT.zipNotFound);
    const lookup = await lookupSession(deps, req);
    if (lookup.state !== 'live') throw new AppError(Code.NotLoggedIn, { en: 'not logged in', zh: '未登录' });
    const file = await centre.zipDownload(deps, lookup.session, zipId, {
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
    });
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', contentDisposition('attachment', file.filename))
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(file.bytes));
  });
}

export const centreJobs: NonNullable<ServerModule['jobs']> = [
  {
    // A zip of more than CENTRE_ZIP_NOW contracts (centre.ts buildZip): built once; a run again after a
    // killed instance builds it anew (the zip stays `building` until then).
    name: centre.CENTRE_ZIP_JOB,
    singleton: true,
    retryLimit: 3,
    retryDelaySeconds: 10,
    async handler(job: { data: { zipId: string } }, deps) {
      await centre.buildZip(deps, job.data.zipId);
    },
  },
];
