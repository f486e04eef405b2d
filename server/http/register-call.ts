import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { Code } from '#contract/codes.ts';
import { type CallDef, JINSHANG_PREFIX, callPath, zEnvelope } from '#contract/envelope.ts';
import type { CallDefOfKind } from '#contract/envelope.ts';
import { KEY_SUFFIX_HEADER, SESSION_COOKIE, TOKEN_COOKIE, XSRF_HEADER } from '#contract/transport.ts';
import type { AppDeps } from '../deps.ts';
import { AppError } from './app-error.ts';
import { type LiveSession, type SessionLookup, sessionGateOf } from './session-gate.ts';
import { type Lang, T, langOf } from './texts.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    sessionLookup?: SessionLookup;
  }
}

/** What a call handler gets: the parsed body, the caller's live session (if any) and the app's deps. */
type CallContext<Req> = {
  body: Req;
  req: FastifyRequest;
  reply: FastifyReply;
  deps: AppDeps;
  lang: Lang;
  /** The live session, or null. Never null in a call with `auth: true`. */
  session: LiveSession | null;
  /** The live session; throws 2000 when there is none (for calls with `auth: false` that need one now). */
  requireSession(): LiveSession;
};

type CallHandler<D extends CallDef> = (
  ctx: CallContext<z.output<D['request']>>,
) => Promise<z.output<D['response']>> | z.output<D['response']>;

/**
 * `userType` travels with every call (SPEC §3). It is checked before the call's schema so that a missing
 * or negative value gets its own clear code (Code.UserTypeInvalid) rather than a generic schema message.
 */
export function checkUserType(body: unknown): void {
  if (body === undefined || body === null) throw new AppError(Code.UserTypeInvalid, T.userTypeRequired);
  if (typeof body !== 'object' || Array.isArray(body)) throw new AppError(Code.BadRequest, T.bodyNotObject);
  const userType = (body as { userType?: unknown }).userType;
  if (userType === undefined || userType === null)
    throw new AppError(Code.UserTypeInvalid, T.userTypeRequired);
  if (typeof userType === 'number' && userType < 0)
    throw new AppError(Code.UserTypeInvalid, T.userTypeNegative);
  if (typeof userType !== 'number' || !Number.isInteger(userType) || userType > 1) {
    throw new AppError(Code.UserTypeInvalid, T.userTypeInvalid);
  }
}

const hasXsrfMaterial = (req: FastifyRequest) =>
  req.cookies[TOKEN_COOKIE] !== undefined ||
  req.headers[XSRF_HEADER] !== undefined ||
  req.headers[KEY_SUFFIX_HEADER] !== undefined;

/**
 * Registers one contract call: POST at callPath(def), body validated by def.request, answer
 * `{code: 0, msg: 'success', data}` with data checked against def.response.
 * Before the schema: the userType check, the session lookup, the XSRF check when a live session is
 * present (every call is a POST and may change state), and the login requirement of `auth: true` calls.
 */
export function registerCall<D extends CallDefOfKind<'json'>>(
  app: FastifyInstance,
  def: D,
  handler: CallHandler<D>,
): void {
  const deps = app.deps;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url: callPath(def),
    schema: {
      operationId: def.name,
      summary: def.summary,
      tags: [def.prefix === JINSHANG_PREFIX ? 'partner login' : def.auth ? 'needs login' : 'public'],
      body: def.request,
      response: { 200: zEnvelope(def.response) },
    },
    preValidation: async (req, reply) => {
      // fastify also parses text/plain; a contract call takes JSON only.
      const type = req.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type))
        throw new AppError(Code.BadRequest, T.contentType);
      checkUserType(req.body);
      const gate = sessionGateOf(app);
      let lookup = await gate.lookup(deps, req);
      // The client drops its token cookie on 2000/3000/4000 but cannot drop the HttpOnly sid. A request with
      // neither the token cookie nor the XSRF headers therefore runs WITHOUT the session (it cannot act as
      // the user, so this is safe); one that carries any of them must match the session exactly.
      if (lookup.state === 'live' && !hasXsrfMaterial(req)) lookup = { state: 'none' };
      req.sessionLookup = lookup;
      if (lookup.state === 'live') {
        gate.checkXsrf(req, lookup.session);
      } else if (def.auth) {
        // The client clears its token on these codes; the server clears both cookies too.
        if (req.cookies[SESSION_COOKIE]) gate.clearCookies(deps, reply);
        throw gate.refusal(lookup);
      }
    },
    handler: async (req, reply) => {
      const lookup = req.sessionLookup;
      const session = lookup?.state === 'live' ? lookup.session : null;
      const data = await handler({
        body: req.body as z.output<D['request']>,
        req,
        reply,
        deps,
        lang: langOf(req),
        session,
        requireSession: () => {
          if (!session)
            throw sessionGateOf(app).refusal(lookup && lookup.state !== 'live' ? lookup : { state: 'none' });
          return session;
        },
      });
      return { code: Code.Ok, msg: 'success', data };
    },
  });
}
