import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import type { Hooks } from '../lib/hooks.ts';

/**
 * One domain of the server (session, pki, seal, ...). `register` adds its routes (through registerCall)
 * to the app; `listen` (optional) adds its listeners to the hooks of lower modules (lib/hooks.ts), so that
 * a lower module can tell a higher one without importing it. app.ts lists the modules in order. A module
 * keeps routes thin, its rules in its services, its SQL in its queries.
 */
export type ServerModule = {
  name: string;
  register(app: FastifyInstance, deps: AppDeps): Promise<void> | void;
  listen?(hooks: Hooks): void;
};
