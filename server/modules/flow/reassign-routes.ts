// The calls of contract/calls/reassign.ts (issue 29): reassign, its candidates and history, deadline change,
// copy link. Registered by module.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  changeFlowDeadline,
  copySigningLink,
  listReassignCandidates,
  listReassignments,
  reassignParty,
} from '#contract/calls/reassign.ts';
import type { AppDeps } from '../../deps.ts';
import { registerCall } from '../../http/register-call.ts';
import * as reassign from './reassign.ts';

const ctxOf = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

export function registerReassignCalls(app: FastifyInstance, deps: AppDeps): void {
  registerCall(app, listReassignCandidates, async ({ body, session, requireSession }) =>
    reassign.listCandidates(deps, { roomToken: body.roomToken, session, requireSession }, body),
  );
  registerCall(app, reassignParty, async ({ body, session, requireSession, req }) =>
    reassign.reassign(deps, { roomToken: body.roomToken, session, requireSession }, body, ctxOf(req)),
  );
  registerCall(app, listReassignments, async ({ body, session, requireSession }) =>
    reassign.history(deps, { roomToken: body.roomToken, session, requireSession }, body.flowId),
  );
  registerCall(app, changeFlowDeadline, async ({ body, requireSession, req }) =>
    reassign.changeDeadline(deps, requireSession(), body, ctxOf(req)),
  );
  registerCall(app, copySigningLink, async ({ body, requireSession, req }) =>
    reassign.copyLink(deps, requireSession(), body, ctxOf(req)),
  );
}
