// The integrator REST API (/open/v1), composition level (beside app.ts, registered by it): the routes of
// every resource, served by route.ts and described by openapi.ts. It uses modules through their index.ts
// only. Other resources add their array of routes to OPEN_ROUTES.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { docsHtml } from './docs.ts';
import { installOpenErrorHandling } from './errors.ts';
import { buildOpenApi } from './openapi.ts';
import { OPEN_PREFIX, type OpenRoute, registerOpenRoutes } from './route.ts';
import { approvalRoutes } from './routes/approvals.ts';
import { documentRoutes } from './routes/documents.ts';
import { flowRoutes } from './routes/flows.ts';
import { templateRoutes } from './routes/templates.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { authorisationRoutes } from './routes/authorisations.ts';
import { bulkSendRoutes } from './routes/bulk-sends.ts';

export { OPEN_PREFIX } from './route.ts';

/** Every route of /open/v1, in the reference's order. */
export const OPEN_ROUTES: readonly OpenRoute[] = [
  ...templateRoutes,
  ...flowRoutes,
  ...documentRoutes,
  ...webhookRoutes,
  ...approvalRoutes,
  ...authorisationRoutes,
  ...bulkSendRoutes,
];

/** Registers /open/v1 (routes, openapi.json, docs) on the app. */
export async function registerOpenApi(
  app: FastifyInstance,
  deps: AppDeps,
  routes: readonly OpenRoute[] = OPEN_ROUTES,
): Promise<void> {
  // Built at the first request for it, not at start (~60 ms of CPU: every route's zod schemas as JSON Schema).
  let built: { json: string; html: string } | undefined;
  const pages = () => {
    if (built) return built;
    const document = buildOpenApi(routes, `${deps.config.publicUrl.replace(/\/$/, '')}${OPEN_PREFIX}`);
    built = { json: JSON.stringify(document), html: docsHtml(document as Parameters<typeof docsHtml>[0]) };
    return built;
  };
  await app.register(
    async (scope) => {
      installOpenErrorHandling(scope);
      scope.get('/openapi.json', { schema: { hide: true } }, async (_req, reply) =>
        reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(pages().json),
      );
      scope.get('/docs', { schema: { hide: true } }, async (_req, reply) =>
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(pages().html),
      );
      registerOpenRoutes(scope, deps, routes);
    },
    { prefix: OPEN_PREFIX },
  );
}
