import { Code } from '#contract/codes.ts';
import { getServiceStatus } from '#contract/calls/monitor.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ServerModule } from '../server-module.ts';
import { pingDatabase } from './queries.ts';
import { serviceStatus } from './status.ts';

/**
 * Liveness and readiness for load balancers, the Playwright web server and the benchmarks:
 * GET /v1/health answers 200 with the database's round-trip time, or 503 when the database does not answer.
 * getServiceStatus (the public `/monitor` screen) exercises and times database, storage, CA and TSA.
 */
export const monitorModule: ServerModule = {
  name: 'monitor',
  register(app, deps) {
    app.get('/v1/health', { schema: { hide: true } }, async (_req, reply) => {
      const started = performance.now();
      try {
        await pingDatabase(deps.db);
      } catch (err) {
        // The question this route answers: a database that does not answer is its answer (503), logged.
        deps.log.error({ err }, 'health: database did not answer');
        reply.code(503).header('cache-control', 'no-store');
        return { code: Code.Internal, msg: 'database unavailable', data: null };
      }
      reply.header('cache-control', 'no-store');
      return {
        code: Code.Ok,
        msg: 'success',
        data: {
          status: 'ok',
          databaseMs: Math.round((performance.now() - started) * 10) / 10,
          node: process.version,
        },
      };
    });

    // Public like /v1/health: it reveals only up/down and times, never an internal message.
    registerCall(app, getServiceStatus, () => serviceStatus(deps));
  },
};
