import type { FastifyRequest } from 'fastify';
import {
  TEMPLATE_DOWNLOAD_PATH,
  deleteTemplate,
  getTemplate,
  getTemplateDraft,
  launchTemplateFlow,
  listTemplates,
  prepareTemplateLaunch,
  saveTemplate,
} from '#contract/calls/template.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { sendPdf } from '../../http/send-pdf.ts';
import { memberHandover } from '../company/index.ts';
import type { ServerModule } from '../server-module.ts';
import { lookupSession } from '../session/index.ts';
import { S, signConfigDeleted, templatesUsingConfigs } from '../sign-config/index.ts';
import { handOverTemplates } from './handover-queries.ts';
import { templateCountsByConfig, unlinkConfig } from './queries.ts';
import * as templates from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ctxOf = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

/** Templates (/manage/fileTemplate) and launching a contract from one (/manage/home/templateCreate ...). */
export const templateModule: ServerModule = {
  name: 'template',
  listen(hooks) {
    // Sign configurations: how many templates use each, and unlinking templates from a deleted one.
    hooks.on(templatesUsingConfigs, ({ deps, configIds }) => templateCountsByConfig(deps.db, configIds));
    hooks.on(signConfigDeleted, ({ ex, configId }) => unlinkConfig(ex, configId));
    // A member's hand-over: the templates they created become the receiver's.
    hooks.on(memberHandover, (e) => handOverTemplates(e));
  },
  register(app, deps) {
    registerCall(app, saveTemplate, async ({ body, requireSession }) =>
      templates.save(deps, requireSession(), body),
    );
    registerCall(app, getTemplate, async ({ body, requireSession }) =>
      templates.getTemplate(deps, requireSession(), body.templateId),
    );
    registerCall(app, listTemplates, async ({ body, requireSession }) =>
      templates.list(deps, requireSession(), body),
    );
    registerCall(app, deleteTemplate, async ({ body, requireSession }) => {
      await templates.remove(deps, requireSession(), body.templateId);
      return null;
    });
    registerCall(app, prepareTemplateLaunch, async ({ body, requireSession }) =>
      templates.prepare(deps, requireSession(), body),
    );
    registerCall(app, getTemplateDraft, async ({ body, requireSession }) =>
      templates.getDraft(deps, requireSession(), body.draftId),
    );
    registerCall(app, launchTemplateFlow, async ({ body, requireSession, req }) =>
      templates.launchDraft(deps, requireSession(), body, ctxOf(req)),
    );

    // The template PDF for the editor and the preview: a GET (pdf.js fetches it), session cookie only; the
    // owning account only (templateOf is scoped), others get NotFound as for an unknown id.
    app.get(`${TEMPLATE_DOWNLOAD_PATH}/:templateId`, async (req, reply) => {
      const { templateId } = req.params as { templateId: string };
      if (!UUID.test(templateId)) throw new AppError(Code.NotFound, S.templateNotFound);
      const lookup = await lookupSession(deps, req);
      if (lookup.state !== 'live')
        throw new AppError(Code.NotLoggedIn, { en: 'not logged in', zh: '未登录' });
      const { bytes, name } = await templates.templatePdf(deps, lookup.session, templateId);
      return sendPdf(reply, bytes, name, 'inline');
    });
  },
};
