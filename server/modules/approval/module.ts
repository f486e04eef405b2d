import {
  decideApproval,
  getApproval,
  getLaunchPolicy,
  getSealPolicy,
  listApprovals,
  saveLaunchPolicy,
  saveSealPolicy,
} from '#contract/calls/approval.ts';
import { approvalDocument } from '#contract/paths/approval.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from '../../http/app-error.ts';
import { registerCall } from '../../http/register-call.ts';
import { sendPdf } from '../../http/send-pdf.ts';
import type { ServerModule } from '../server-module.ts';
import { memberHandover } from '../company/index.ts';
import { handOverApprover } from './queries.ts';
import { lookupSession } from '../session/index.ts';
import * as approvals from './service.ts';
import { A } from './texts.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Seal-use approval (issue 27): policies, the approvers' list and decisions, the bound documents. The room
 * calls (getRoomApprovals, requestSealApproval) are flow's, which owns rooms.
 */
export const approvalModule: ServerModule = {
  name: 'approval',
  listen(hooks) {
    // A member's hand-over: their place among a seal's approvers (rules and waiting requests) goes to the receiver.
    hooks.on(memberHandover, async (e) => ({ counts: await handOverApprover(e.tx, e) }));
  },
  register(app, deps) {
    registerCall(app, getSealPolicy, async ({ body, requireSession }) =>
      approvals.getSealPolicy(deps, requireSession(), body.sealId),
    );
    registerCall(app, saveSealPolicy, async ({ body, requireSession }) =>
      approvals.saveSealPolicy(deps, requireSession(), body),
    );
    registerCall(app, getLaunchPolicy, async ({ requireSession }) =>
      approvals.getLaunchPolicy(deps, requireSession()),
    );
    registerCall(app, saveLaunchPolicy, async ({ body, requireSession }) =>
      approvals.saveLaunchPolicy(deps, requireSession(), body),
    );
    registerCall(app, listApprovals, async ({ body, requireSession }) =>
      approvals.listApprovals(deps, requireSession(), body),
    );
    registerCall(app, getApproval, async ({ body, requireSession }) =>
      approvals.getApproval(deps, requireSession(), body.approvalId),
    );
    registerCall(app, decideApproval, async ({ body, requireSession }) =>
      approvals.decideApproval(deps, requireSession(), body),
    );
    // The version an approval is bound to: for its approvers, its requester and the administrator (a
    // session), or the requester's signing room (?roomToken=); others 404.
    app.get(`${approvalDocument.path}/:approvalId/:file`, async (req, reply) => {
      const { approvalId, file } = req.params as { approvalId: string; file: string };
      const documentId = file.replace(/\.pdf$/i, '');
      const missing = () => new AppError(Code.NotFound, A.approvalNotFound, { status: 404 });
      if (!UUID.test(approvalId) || !UUID.test(documentId)) throw missing();
      const roomToken = (req.query as Record<string, string | undefined>).roomToken;
      let who: Parameters<typeof approvals.approvalDocumentBytes>[1];
      if (roomToken) who = { roomToken };
      else {
        const lookup = await lookupSession(deps, req);
        if (lookup.state !== 'live') throw missing();
        who = { actor: lookup.session };
      }
      try {
        const pdf = await approvals.approvalDocumentBytes(deps, who, approvalId, documentId);
        return sendPdf(reply, pdf.bytes, pdf.filename, 'inline');
      } catch (err) {
        if (err instanceof AppError && err.code === Code.NotFound) throw missing();
        throw err;
      }
    });
  },
};
