// How a route of the integrator API (/open/v1) is declared and served. A route is data: method, path, the
// scope it needs, zod schemas of its path parameters, query, body and answer, and a handler that gets the
// key's caller (its `actor`, the Actor the modules' services take). registerOpenRoutes serves every route
// the same way (key, scope, validation, Idempotency-Key, answer envelope) and openapi.ts documents the same
// declarations, so the reference cannot drift from what is validated.
//
// To add routes (e.g. webhooks): write `server/open/routes/<name>.ts` exporting an array of
// `defineOpenRoute({...})`, and add it to OPEN_ROUTES in server/open/index.ts. Handlers call modules'
// index.ts only, never their queries (.dependency-cruiser.cjs: modules-only-through-index).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ApiScope } from '#contract/calls/apikey.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../deps.ts';
import { sendPdf } from '../http/send-pdf.ts';
import { type Lang, langOf } from '../http/texts.ts';
import { admitUpload, countUploadBody, releaseUpload } from '../http/upload-budget.ts';
import {
  type KeyCaller,
  authenticate,
  finishIdempotent,
  requireScope,
  startIdempotent,
} from '../modules/apikey/index.ts';
import type { PdfDownload } from '../modules/flow/index.ts';

/** Prefix of every route of the integrator API. */
export const OPEN_PREFIX = '/open/v1';

type AnyObject = z.ZodObject<z.ZodRawShape>;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler gets. */
type OpenContext<P, Q, B> = {
  deps: AppDeps;
  caller: KeyCaller;
  params: P;
  query: Q;
  body: B;
  lang: Lang;
  /** Client address and user agent, for audit entries. */
  ctx: { ip: string; userAgent: string | null };
};

export type OpenRoute<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> = {
  method: 'GET' | 'POST' | 'DELETE';
  /** Below OPEN_PREFIX, fastify style: `/flows/:flowId`. */
  path: string;
  operationId: string;
  /** Group in the reference (templates, flows, documents, webhooks). */
  tag: string;
  summary: string;
  description?: string;
  scope: ApiScope;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of `data` in the `{code: 0, msg, data}` answer; for a PDF route, ignored (`pdf: true`). */
  response: R;
  /** The route answers a PDF file instead of JSON. */
  pdf?: boolean;
  /** HTTP status of success (default 200; 201 for a creation). */
  status?: 200 | 201;
  /** Largest accepted body (default BODY_LIMIT_BYTES). */
  bodyLimit?: (deps: AppDeps) => number;
  /**
   * The body is an upload (a file): admitted by the upload budget (http/upload-budget.ts) once the key is
   * known and before the body is read: per key (429) and in total (503), with Retry-After.
   */
  upload?: boolean;
  handler(
    ctx: OpenContext<Out<P>, Out<Q>, Out<B>>,
  ): Promise<R extends z.ZodType ? z.input<R> | PdfDownload : never>;
};

/** Declares a route (an identity function that keeps the schemas' types for the handler). */
export function defineOpenRoute<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(route: OpenRoute<P, Q, B, R>): OpenRoute {
  return route as unknown as OpenRoute;
}

/** Response header set on an answer replayed from an earlier request with the same Idempotency-Key. */
export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';

declare module 'fastify' {
  interface FastifyRequest {
    openCaller?: KeyCaller;
    openIdempotency?: { keyId: string; idemKey: string };
  }
}

/** `Authorization: Bearer <secret>` (the scheme case-insensitive), or undefined. */
function bearerOf(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

const requestHashOf = (req: FastifyRequest, route: OpenRoute) =>
  createHash('sha256')
    .update(`${route.method} ${req.url}\n${JSON.stringify(req.body ?? null)}`)
    .digest('hex');

/** Serves the routes inside `app` (a scope registered with prefix OPEN_PREFIX). */
export function registerOpenRoutes(app: FastifyInstance, deps: AppDeps, routes: readonly OpenRoute[]): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      bodyLimit: route.bodyLimit?.(deps),
      // Validated with the zod schemas by the app's validator compiler; documented by openapi.ts, not by the
      // /v1 OpenAPI document.
      schema: {
        hide: true,
        ...(route.params ? { params: route.params } : {}),
        ...(route.query ? { querystring: route.query } : {}),
        ...(route.body ? { body: route.body } : {}),
      },
      // The key before anything else: no key, no parsing, no validation messages. An upload then takes its
      // share of the upload budget, before its body is read.
      onRequest: async (req, reply) => {
        const caller = await authenticate(deps, bearerOf(req));
        requireScope(caller, route.scope);
        req.openCaller = caller;
        if (route.upload)
          admitUpload(
            deps,
            req,
            reply,
            `key:${caller.keyId}`,
            route.bodyLimit?.(deps) ?? deps.config.bodyLimitBytes,
          );
      },
      ...(route.upload
        ? { preParsing: countUploadBody, onResponse: releaseUpload, onRequestAbort: releaseUpload }
        : {}),
      preHandler: async (req, reply) => {
        if (route.method !== 'POST') return;
        const header = req.headers['idempotency-key'];
        if (header === undefined) return;
        const idemKey = Array.isArray(header) ? header[0] : header;
        const keyId = req.openCaller!.keyId;
        const started = await startIdempotent(deps, keyId, idemKey, requestHashOf(req, route));
        if (started.state === 'replay') {
          return reply
            .status(started.status)
            .header(IDEMPOTENT_REPLAY_HEADER, 'true')
            .type('application/json; charset=utf-8')
            .serializer(JSON.stringify)
            .send(started.answer);
        }
        req.openIdempotency = { keyId, idemKey };
      },
      // The first answer to an Idempotency-Key, refusals included, is kept (a 5xx is not: retry may help).
      onSend: async (req, reply, payload) => {
        const idem = req.openIdempotency;
        if (!idem) return payload;
        req.openIdempotency = undefined;
        let answer: unknown = null;
        try {
          answer = typeof payload === 'string' ? JSON.parse(payload) : null;
        } catch {
          answer = null;
        }
        await finishIdempotent(deps, idem.keyId, idem.idemKey, reply.statusCode, answer);
        return payload;
      },
      handler: async (req, reply) => {
        const result = await route.handler({
          deps,
          caller: req.openCaller!,
          params: req.params as never,
          query: req.query as never,
          body: req.body as never,
          lang: langOf(req),
          ctx: { ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
        });
        if (route.pdf) {
          const pdf = result as PdfDownload;
          return sendPdf(reply, pdf.bytes, pdf.filename);
        }
        // The declared answer schema also trims: nothing undeclared leaves the server.
        const data = route.response.parse(result);
        return reply
          .status(route.status ?? 200)
          .type('application/json; charset=utf-8')
          .serializer(JSON.stringify)
          .send({ code: Code.Ok, msg: 'success', data });
      },
    });
  }
}
