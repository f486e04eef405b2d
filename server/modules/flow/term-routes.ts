// Registers the calls of issue 29's contract term, renewal and launch drafts (contract/calls/term.ts, drafts.ts).
import {
  deleteLaunchDraft,
  getLaunchDraft,
  listLaunchDrafts,
  saveLaunchDraft,
} from '#contract/calls/drafts.ts';
import { getFlowRenewal, getFlowTerm, listFlowTerms, setFlowTerm } from '#contract/calls/term.ts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { registerCall } from '../../http/register-call.ts';
import * as drafts from './drafts.ts';
import { renewal, setTerm, termsOfFlows, termView } from './term.ts';

export function registerTermCalls(app: FastifyInstance, deps: AppDeps): void {
  registerCall(app, getFlowTerm, async ({ body, requireSession }) =>
    termView(deps, requireSession(), body.flowId),
  );
  registerCall(app, setFlowTerm, async ({ body, requireSession, req }) =>
    setTerm(deps, requireSession(), body.flowId, body.term, {
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
    }),
  );
  registerCall(app, listFlowTerms, async ({ body, requireSession }) =>
    termsOfFlows(deps, requireSession(), body.flowIds),
  );
  registerCall(app, getFlowRenewal, async ({ body, requireSession }) =>
    renewal(deps, requireSession(), body),
  );
  registerCall(app, saveLaunchDraft, async ({ body, requireSession }) =>
    drafts.saveDraft(deps, requireSession(), body),
  );
  registerCall(app, listLaunchDrafts, async ({ requireSession }) =>
    drafts.listDrafts(deps, requireSession()),
  );
  registerCall(app, getLaunchDraft, async ({ body, requireSession }) =>
    drafts.openDraft(deps, requireSession(), body.draftId),
  );
  registerCall(app, deleteLaunchDraft, async ({ body, requireSession }) =>
    drafts.removeDraft(deps, requireSession(), body.draftId),
  );
}
