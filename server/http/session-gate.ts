import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionEndReason } from '../db/schema/accounts.ts';
import type { AppDeps } from '../deps.ts';
import type { Actor } from '../lib/actor.ts';
import type { AppError } from './app-error.ts';

/**
 * A session that may act: not ended, not idle too long, its user active. It is the Actor of the calls made
 * in it (proven by the session), plus what only the session itself has: its id and XSRF token.
 */
export type LiveSession = Actor & {
  id: string;
  token: string;
  via: { kind: 'session'; sessionId: string };
};

export type SessionLookup =
  | { state: 'none' }
  | { state: 'live'; session: LiveSession }
  | { state: 'ended'; reason: SessionEndReason };

/**
 * What the transport (registerCall, registerUpload) needs from whoever keeps the sessions: the session of a
 * request, the XSRF check, clearing the cookies and the refusal of a call that needs a login. The session
 * module supplies it when it registers (`provideSessionGate`), so http/ never imports a module.
 */
type SessionGate = {
  lookup(deps: AppDeps, req: FastifyRequest): Promise<SessionLookup>;
  /** Throws the XSRF refusal when the request's headers do not match the live session. */
  checkXsrf(req: FastifyRequest, session: LiveSession): void;
  clearCookies(deps: AppDeps, reply: FastifyReply): void;
  refusal(lookup: Exclude<SessionLookup, { state: 'live' }>): AppError;
};

/** One app's transport state, shared by every plugin scope of the app (a decorator holding one object). */
type Transport = { sessionGate: SessionGate | null };

declare module 'fastify' {
  interface FastifyInstance {
    transport: Transport;
  }
}

/** app.ts calls this once on the root app, before the modules register. */
export function installTransport(app: FastifyInstance): void {
  app.decorate('transport', { sessionGate: null } satisfies Transport);
}

/** The session module hands its gate to the transport (from any plugin scope of the app). */
export function provideSessionGate(app: FastifyInstance, gate: SessionGate): void {
  app.transport.sessionGate = gate;
}

/** The app's session gate; read per request, so calls may be registered before the session module. */
export function sessionGateOf(app: FastifyInstance): SessionGate {
  const gate = app.transport.sessionGate;
  if (!gate) throw new Error('no session gate: the session module provides it when it registers (app.ts)');
  return gate;
}
