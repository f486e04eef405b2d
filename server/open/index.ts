// The integrator REST API (/open/v1), composition level (beside app.ts, registered by it): the routes of
// every resource, served by route.ts and described by openapi.ts. It uses modules through their index.ts
// only. Other resources add their array of routes to OPEN_ROUTES.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { docsHtml } from './docs.ts';
import { installOpenErrorHandling } from './errors.ts';
import { buildOpenApi } from './openapi.ts';
import { OPEN_PREFIX, type OpenRoute, registerOpenRoutes } from './route.ts';
import { documentRoutes } from './routes/documents.ts';
import { flowRoutes } from './routes/flows.ts';
import { templateRoutes } from './routes/templates.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export { OPEN_PREFIX, defineOpenRoute, type OpenRoute } from './route.ts';

/** Every route of /open/v1, in the reference's order. */
export const OPEN_ROUTES: readonly OpenRoute[] = [
  ...templateRoutes,
  ...flowRoutes,
  ...documentRoutes,
  ...webhookRoutes,
];

/** Registers /open/v1 (routes, openapi.json, docs) on the app. */
export async function registerOpenApi(
  app: FastifyInstance,
  deps: AppDeps,
  routes: readonly OpenRoute[] = OPEN_ROUTES,
): Promise<void> {
  const document = buildOpenApi(routes, `${deps.config.publicUrl.replace(/\/$/, '')}${OPEN_PREFIX}`);
  const json = JSON.stringify(document);
  const html = docsHtml(document as Parameters<typeof docsHtml>[0]);
  await app.register(
    async (scope) => {
      installOpenErrorHandling(scope);
      scope.get('/openapi.json', { schema: { hide: true } }, async (_req, reply) =>
        reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(json),
      );
      scope.get('/docs', { schema: { hide: true } }, async (_req, reply) =>
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html),
      );
      registerOpenRoutes(scope, deps, routes);
    },
    { prefix: OPEN_PREFIX },
  );
}
