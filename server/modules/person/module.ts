import type { FastifyInstance } from 'fastify';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import {
  acceptUserAgreement,
  authIdNamePhone,
  checkCurrentLoginUserOpenSign,
  createPersonCaCert,
  getFaceAuthResult,
  getPersonCaCert,
  getPersonalDetails,
  getUserAgreement,
  recoverAccountFinish,
  recoverAccountVerify,
  startFaceAuth,
} from '#contract/calls/person.ts';
import { AppError } from '../../http/app-error.ts';
import { sendEnvelopeError } from '../../http/error-handler.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AppDeps } from '../../deps.ts';
import type { ServerModule } from '../server-module.ts';
import { verifiedNames } from '../company/index.ts';
import { loginFacts } from '../session/index.ts';
import { DevelopmentIdentityProvider } from './identity-provider.ts';
import * as person from './service.ts';

/** Where an identity provider posts its signed face-recognition result. */
const FACE_CALLBACK_PATH = '/v1/person/face/callback';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
// The simulated provider only ever sends the browser back into this app's face result routes.
const isResultRoute = (url: unknown): url is string =>
  typeof url === 'string' && /^\/#\/h5\/v1\/[A-Za-z]+\/[\w%.~/-]+$/.test(url) && !url.includes('//', 2);

/**
 * DEVELOPMENT provider pages: a stand-in for the face-recognition vendor's page. Its buttons make the
 * provider's signed server callback (the same code path a real provider's POST takes) and then send the
 * browser to the result route, whose screen asks the server what was decided.
 */
function registerDevFacePages(app: FastifyInstance, deps: AppDeps, provider: DevelopmentIdentityProvider) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8192 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.get<{ Params: { personCode: string }; Querystring: Record<string, string> }>(
    '/v1/person/dev-face/:personCode',
    { schema: { hide: true } },
    async (req, reply) => {
      const face = await person.pendingFace(deps, req.params.personCode);
      const { passed, failed } = req.query;
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (!face || !isResultRoute(passed) || !isResultRoute(failed)) {
        reply.status(404);
        return '<!doctype html><meta charset="utf-8"><p>Unknown or expired face recognition attempt. 人脸识别记录不存在或已过期。</p>';
      }
      const action = `/v1/person/dev-face/${encodeURIComponent(req.params.personCode)}`;
      const hidden = `<input type="hidden" name="passed" value="${escapeHtml(passed)}"><input type="hidden" name="failed" value="${escapeHtml(failed)}">`;
      return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Development identity provider</title>
<style>body{font:16px system-ui,sans-serif;margin:0;padding:24px;max-width:480px}.dev{background:#fff7e6;border:1px solid #ffd591;padding:12px;border-radius:6px}button{font-size:16px;padding:10px 18px;margin:8px 8px 0 0}</style>
</head><body><p class="dev" role="alert"><b>Development identity provider 开发用身份核验服务</b><br>
No face is checked: choose the result the simulated provider reports. 不会进行真实的人脸比对：请选择模拟的识别结果。</p>
<h1>Face recognition 人脸识别</h1>
<form method="post" action="${action}">${hidden}
<button name="result" value="passed">Simulate: face matches 模拟：识别通过</button>
<button name="result" value="failed">Simulate: face does not match 模拟：识别失败</button>
</form></body></html>`;
    },
  );
  app.post<{ Params: { personCode: string }; Body: Record<string, string> }>(
    '/v1/person/dev-face/:personCode',
    { schema: { hide: true } },
    async (req, reply) => {
      const body = req.body ?? {};
      const result = body.result === 'passed' ? 'passed' : 'failed';
      const target = result === 'passed' ? body.passed : body.failed;
      const face = await person.pendingFace(deps, req.params.personCode);
      if (!face || !isResultRoute(target)) {
        return reply.status(404).type('text/plain; charset=utf-8').send('unknown or expired attempt');
      }
      // What the vendor's server would POST to FACE_CALLBACK_PATH, decided by the same function.
      await person.faceCallback(
        deps,
        provider.signCallback({ personCode: face.personCode, openFlag: face.openFlag, result }),
      );
      return reply.redirect(target, 303);
    },
  );
}

/** Person accounts: real name, agreement, certificate, details, recovery, face recognition (issue 3). */
export const personModule: ServerModule = {
  name: 'person',
  listen(hooks) {
    // The login info's hasCaCert for a person session (a company session's is the company module's).
    hooks.on(loginFacts, async ({ deps, actor }) =>
      actor.userType === UserType.Person
        ? { hasCaCert: await person.personHasCaCert(deps, actor.userId) }
        : {},
    );
    // A company's member list marks its legal representative by the members' verified names.
    hooks.on(verifiedNames, async ({ deps, userIds }) => {
      const out = new Map<string, string>();
      for (const id of new Set(userIds)) {
        const name = await person.verifiedNameOf(deps, id);
        if (name) out.set(id, name);
      }
      return out;
    });
  },
  async register(app, deps) {
    registerCall(app, authIdNamePhone, ({ body, requireSession }) =>
      person.authIdNamePhone(deps, requireSession(), body),
    );
    registerCall(app, checkCurrentLoginUserOpenSign, ({ requireSession }) =>
      person.openSignStatus(deps, requireSession()),
    );
    registerCall(app, getUserAgreement, ({ session }) => person.getAgreement(deps, session));
    registerCall(app, acceptUserAgreement, ({ body, requireSession }) =>
      person.acceptAgreement(deps, requireSession(), body.version),
    );
    registerCall(app, createPersonCaCert, ({ requireSession }) =>
      person.createPersonCaCert(deps, requireSession()),
    );
    registerCall(app, getPersonCaCert, ({ requireSession }) =>
      person.getPersonCaCert(deps, requireSession()),
    );
    registerCall(app, getPersonalDetails, ({ requireSession }) =>
      person.personalDetails(deps, requireSession()),
    );
    registerCall(app, recoverAccountVerify, ({ body, requireSession }) =>
      person.recoverVerify(deps, requireSession(), body),
    );
    registerCall(app, recoverAccountFinish, ({ body, requireSession }) =>
      person.recoverFinish(deps, requireSession(), body.ticket),
    );
    registerCall(app, startFaceAuth, ({ body, requireSession }) =>
      person.startFace(deps, requireSession(), body),
    );
    registerCall(app, getFaceAuthResult, ({ body }) => person.faceResult(deps, body.token));

    // Server-to-server: the identity provider's signed result. JSON in, {code, msg, data} out.
    app.post(FACE_CALLBACK_PATH, { schema: { hide: true } }, async (req, reply) => {
      try {
        const claim = await person.faceCallback(deps, req.body);
        return {
          code: Code.Ok,
          msg: 'success',
          data: { personCode: claim.personCode, result: claim.result },
        };
      } catch (err) {
        if (err instanceof AppError) return sendEnvelopeError(req, reply, err);
        throw err;
      }
    });

    // A real provider sends the browser back here; the server asks the provider for the result, then
    // sends the browser on to the face result route (passed or failed).
    app.get<{ Params: { personCode: string }; Querystring: Record<string, string> }>(
      `${person.FACE_RETURN_PATH}/:personCode`,
      { schema: { hide: true } },
      async (req, reply) => {
        const target = await person.faceReturn(deps, req.params.personCode, req.query.t ?? '');
        reply.header('cache-control', 'no-store');
        if (!target || !isResultRoute(target))
          return reply
            .status(404)
            .type('text/html; charset=utf-8')
            .send(
              '<!doctype html><meta charset="utf-8"><p>Unknown or expired face recognition attempt. 人脸识别记录不存在或已过期。</p>',
            );
        return reply.redirect(target, 303);
      },
    );

    const provider = await person.identityProviderFor(deps);
    if (provider instanceof DevelopmentIdentityProvider) {
      // In production only with ALLOW_DEV_IDENTITY_PROVIDER=1 (serve.ts refuses otherwise): a demonstration.
      if (deps.config.isProduction)
        deps.log.warn('identity provider: DEVELOPMENT provider running in production');
      registerDevFacePages(app, deps, provider);
    }
  },
};
