import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

/**
 * One domain of the server (session, pki, seal, ...). `register` adds its routes (through registerCall)
 * and hooks to the app; app.ts lists the modules in order. A module keeps routes thin and its rules in
 * its service, its SQL in its queries.
 */
export type ServerModule = {
  name: string;
  register(app: FastifyInstance, deps: AppDeps): Promise<void> | void;
};
