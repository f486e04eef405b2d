// Every answer of the integrator API is the product's envelope `{code, msg, data}` (code 0 = success); a
// refusal also carries a meaningful HTTP status, so that ordinary HTTP clients and retries behave. The code
// is stable (contract/codes.ts); the status follows from it (OPEN_STATUS_OF_CODE, documented in openapi.ts).
import type { FastifyError, FastifyInstance } from 'fastify';
import { Code } from '#contract/codes.ts';
import { classify, sendEnvelopeError, unknownCall } from '../http/error-handler.ts';
import { T, langOf } from '../http/texts.ts';

/** The HTTP status of a refusal the rest of the product answers with HTTP 200. */
export const OPEN_STATUS_OF_CODE: Readonly<Record<number, number>> = {
  [Code.BadRequest]: 400,
  [Code.UserTypeInvalid]: 400,
  [Code.NotLoggedIn]: 401,
  [Code.AccountDisabled]: 401,
  [Code.LoggedInElsewhere]: 401,
  [Code.ApiKeyInvalid]: 401,
  [Code.ApiScopeMissing]: 403,
  [Code.NotFound]: 404,
  [Code.UnknownCall]: 404,
  [Code.FlowClosed]: 409,
  [Code.NotYourTurn]: 409,
  [Code.AlreadySigned]: 409,
  [Code.DeadlinePassed]: 409,
  [Code.IdempotencyInProgress]: 409,
  [Code.PayloadTooLarge]: 413,
  [Code.RateLimited]: 429,
};

/** A business refusal not listed above (1100 and the domain codes): 422, the request was understood but refused. */
const DEFAULT_REFUSAL_STATUS = 422;

/** The HTTP status of a refusal: the product's 601/602 become 401/403; a 200 refusal gets its code's status. */
function openStatusOf(refusal: { status: number; code: number }): number {
  if (refusal.status === 601) return 401;
  if (refusal.status === 602) return 403;
  if (refusal.status >= 400) return refusal.status;
  return OPEN_STATUS_OF_CODE[refusal.code] ?? DEFAULT_REFUSAL_STATUS;
}

/** The error and not-found handlers of the /open/v1 scope. */
export function installOpenErrorHandling(scope: FastifyInstance): void {
  scope.setErrorHandler((err: FastifyError, req, reply) => {
    let refusal: ReturnType<typeof classify> = null;
    try {
      refusal = classify(err, langOf(req));
    } catch (inner) {
      req.log.error({ err: inner, original: err, reqId: req.id }, 'error while classifying an error');
    }
    if (!refusal) {
      req.log.error({ err, reqId: req.id }, 'unexpected error');
      return sendEnvelopeError(req, reply, { status: 500, code: Code.Internal, text: T.internal });
    }
    const status = openStatusOf(refusal);
    req.log.info({ code: refusal.code, status, err: err.message }, 'open api refused');
    const retry = refusal.data?.retryAfterSeconds;
    if (typeof retry === 'number') reply.header('retry-after', String(retry));
    return sendEnvelopeError(req, reply, { ...refusal, status });
  });
  scope.setNotFoundHandler((req, reply) => sendEnvelopeError(req, reply, unknownCall(req)));
}
