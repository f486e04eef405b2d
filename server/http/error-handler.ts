import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { Code } from '#contract/codes.ts';
import { AppError } from './app-error.ts';
import { T, type Text, langOf, render } from './texts.ts';

type Refusal = { status: number; code: number; text: Text | string };

function fieldMessages(validation: { instancePath?: string; message?: string }[]): string {
  return validation
    .map((v) => {
      const path = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
      return path ? `${path}: ${v.message}` : (v.message ?? 'invalid');
    })
    .join('; ');
}

/** Maps any error to the envelope's code, message and HTTP status. Unknown errors get a generic text. */
export function classify(err: FastifyError | AppError | Error): Refusal | null {
  if (err instanceof AppError) return { status: err.status, code: err.code, text: err.text };
  if (hasZodFastifySchemaValidationErrors(err)) {
    return { status: 200, code: Code.BadRequest, text: fieldMessages(err.validation) };
  }
  const fe = err as FastifyError;
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 200, code: Code.BadRequest, text: T.bodyNotJson };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 200, code: Code.BadRequest, text: T.bodyEmpty };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 200, code: Code.BadRequest, text: T.contentType };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return { status: 413, code: Code.PayloadTooLarge, text: T.payloadTooLarge };
  }
  // JSON that secure-json-parse refuses (e.g. __proto__) arrives as a 400 SyntaxError.
  if (err instanceof SyntaxError && fe.statusCode === 400)
    return { status: 200, code: Code.BadRequest, text: T.bodyNotJson };
  if (fe.statusCode === 429) return { status: 429, code: Code.RateLimited, text: T.rateLimited };
  if (fe.statusCode === 413) return { status: 413, code: Code.PayloadTooLarge, text: T.payloadTooLarge };
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: 200, code: Code.BadRequest, text: T.badRequest };
  }
  return null;
}

export function sendEnvelopeError(req: FastifyRequest, reply: FastifyReply, refusal: Refusal): FastifyReply {
  // fastify's reply.code() only takes 100-599; the spec's 601/602 go to Node directly (it allows up to 999).
  if (refusal.status > 599) reply.raw.statusCode = refusal.status;
  else reply.status(refusal.status);
  // The route's response schema describes success; a refusal is serialised as it is.
  return reply
    .serializer(JSON.stringify)
    .type('application/json; charset=utf-8')
    .send({ code: refusal.code, msg: render(refusal.text, langOf(req)), data: null });
}

/**
 * One error handler for the whole app: every failure becomes `{code, msg, data: null}`. An unexpected
 * error is logged with the request id and answered with a generic message, never its stack or text.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const refusal = classify(err);
    if (refusal) {
      if (refusal.code === Code.BadRequest || refusal.status >= 400)
        req.log.info({ code: refusal.code, err: err.message }, 'refused');
      return sendEnvelopeError(req, reply, refusal);
    }
    req.log.error({ err, reqId: req.id }, 'unexpected error');
    return sendEnvelopeError(req, reply, { status: 500, code: Code.Internal, text: T.internal });
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0].slice(0, 200);
    if (path.startsWith('/v1/')) {
      return sendEnvelopeError(req, reply, {
        status: 404,
        code: Code.UnknownCall,
        text: {
          en: `${T.unknownCall.en}: ${req.method} ${path}`,
          zh: `${T.unknownCall.zh}：${req.method} ${path}`,
        },
      });
    }
    return sendEnvelopeError(req, reply, { status: 404, code: Code.NotFound, text: T.notFound });
  });
}
