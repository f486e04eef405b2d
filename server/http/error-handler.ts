import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { zhCN } from 'zod/locales';
import { chineseOf } from '#contract/bilingual.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from './app-error.ts';
import { type Lang, T, type Text, langOf, render } from './texts.ts';

type Refusal = { status: number; code: number; text: Text | string; data?: Record<string, unknown> | null };

type FieldIssue = {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
};

const zodChinese = zhCN();
/** zod does not keep the value it refused; a stand-in of the type its English message names will do. */
const SAMPLE_OF: Record<string, unknown> = {
  string: '',
  number: 0,
  boolean: false,
  array: [],
  object: {},
  null: null,
};
/** zod's zh-CN locale leaves some expected type names in English. */
const TYPE_ZH: Record<string, string> = {
  string: '字符串',
  number: '数字',
  int: '整数',
  boolean: '布尔值',
  array: '数组',
  object: '对象',
  date: '日期',
  null: '空值',
};

/** A field message in the request's language: the contract's own (contract/bilingual.ts) or zod's. */
function messageIn(v: FieldIssue, lang: Lang): string {
  const en = v.message ?? 'invalid';
  if (lang === 'en') return en;
  const own = chineseOf(en);
  if (own) return own;
  if (!v.keyword) return en;
  const received = /received (\w+)/.exec(en)?.[1];
  const input = received && received in SAMPLE_OF ? SAMPLE_OF[received] : undefined;
  const expected = v.params?.expected;
  const params =
    typeof expected === 'string' ? { ...v.params, expected: TYPE_ZH[expected] ?? expected } : v.params;
  try {
    const zh = zodChinese.localeError({ ...params, code: v.keyword, input } as never);
    return typeof zh === 'string' ? zh : (zh?.message ?? en);
  } catch {
    return en; // a refusal must never fail to be told: English rather than nothing
  }
}

function fieldMessages(validation: FieldIssue[], lang: Lang): string {
  return validation
    .map((v) => {
      const path = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
      const message = messageIn(v, lang);
      return path ? `${path}: ${message}` : message;
    })
    .join(lang === 'zh' ? '；' : '; ');
}

/** Maps any error to the envelope's code, message and HTTP status. Unknown errors get a generic text. */
export function classify(err: FastifyError | AppError | Error, lang: Lang = 'en'): Refusal | null {
  if (err instanceof AppError) return { status: err.status, code: err.code, text: err.text, data: err.data };
  if (hasZodFastifySchemaValidationErrors(err)) {
    return { status: 200, code: Code.BadRequest, text: fieldMessages(err.validation as FieldIssue[], lang) };
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
    .send({ code: refusal.code, msg: render(refusal.text, langOf(req)), data: refusal.data ?? null });
}

/** The 404 refusal of a path no route serves, naming the method and path. */
export function unknownCall(req: FastifyRequest): Refusal {
  const path = req.url.split('?')[0].slice(0, 200);
  return {
    status: 404,
    code: Code.UnknownCall,
    text: {
      en: `${T.unknownCall.en}: ${req.method} ${path}`,
      zh: `${T.unknownCall.zh}：${req.method} ${path}`,
    },
  };
}

/**
 * One error handler for the whole app: every failure becomes `{code, msg, data: null}` (or a refusal's own
 * small `data`, such as `{ retryAfterSeconds }` of a resend wait). An unexpected
 * error is logged with the request id and answered with a generic message, never its stack or text. A path
 * under one of `apiPrefixes` that no route answers is an unknown call (1004); any other, not found (1101).
 */
export function installErrorHandling(app: FastifyInstance, apiPrefixes: readonly string[] = ['/v1']): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    let refusal: Refusal | null;
    try {
      refusal = classify(err, langOf(req));
    } catch (inner) {
      // Telling a refusal must not fail in turn: fastify's fallback would show the inner error's text.
      req.log.error({ err: inner, original: err, reqId: req.id }, 'error while classifying an error');
      refusal = null;
    }
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
    // An API path nothing answers is an unknown call, also when the SPA's static files (a wildcard route)
    // looked first and found no file.
    if (apiPrefixes.some((p) => path === p || path.startsWith(`${p}/`)))
      return sendEnvelopeError(req, reply, unknownCall(req));
    return sendEnvelopeError(req, reply, { status: 404, code: Code.NotFound, text: T.notFound });
  });
}
