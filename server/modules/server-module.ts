import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import type { AnyJobDefinition } from '../jobs/pg-boss-jobs.ts';
import type { Hooks } from '../lib/hooks.ts';

/**
 * One domain of the server (session, pki, seal, ...). `register` adds its routes (through registerCall)
 * to the app; `listen` (optional) adds its listeners to the hooks of lower modules (lib/hooks.ts), so that
 * a lower module can tell a higher one without importing it. app.ts lists the modules in order. A module
 * keeps routes thin, its rules in its services, its SQL in its queries. `jobs` (optional) are the background
 * jobs it runs (server/jobs): each handler gets the app's deps; a cron job is a sweep run once across instances.
 */
export type ServerModule = {
  name: string;
  register(app: FastifyInstance, deps: AppDeps): Promise<void> | void;
  listen?(hooks: Hooks): void;
  jobs?: readonly AnyJobDefinition<AppDeps>[];
};
