// Seal-use approval requests of the key's company (issue 27; scopes approvals:read, approvals:write): the
// approval module's own services, the ones the workspace calls, with the key's Actor (its administrator), so
// a key decides only where a seal's policy names that administrator as an approver.
import {
  zApprovalDetail,
  zApprovalIdParams,
  zApprovalPage,
  zDecideApprovalBody,
  zListApprovalsQuery,
} from '#contract/open/v1.ts';
import { decideApproval, getApproval, listApprovals } from '../../modules/approval/index.ts';
import { defineOpenRoute } from '../route.ts';

export const approvalRoutes = [
  defineOpenRoute({
    method: 'GET',
    path: '/approvals',
    operationId: 'listApprovals',
    tag: 'approvals',
    summary: 'The company’s seal-use approval requests, newest first (`scope`: all, toMe, mine; `status`).',
    scope: 'approvals:read',
    query: zListApprovalsQuery,
    response: zApprovalPage,
    handler: ({ deps, caller, query }) => listApprovals(deps, caller.actor, query),
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/approvals/:approvalId',
    operationId: 'getApproval',
    tag: 'approvals',
    summary:
      'One request: the flow, the seal, the requester, the bound document versions (SHA-256) and the decisions. ' +
      'Another company’s: 404.',
    scope: 'approvals:read',
    params: zApprovalIdParams,
    response: zApprovalDetail,
    handler: ({ deps, caller, params }) => getApproval(deps, caller.actor, params.approvalId),
  }),
  defineOpenRoute({
    method: 'POST',
    path: '/approvals/:approvalId/decision',
    operationId: 'decideApproval',
    tag: 'approvals',
    summary:
      'Approves or rejects (with a comment) a pending request as the key’s administrator, who must be an approver ' +
      'of it whose turn it is (otherwise 403); a decided, expired or void request is refused with its status.',
    scope: 'approvals:write',
    params: zApprovalIdParams,
    body: zDecideApprovalBody,
    response: zApprovalDetail,
    handler: ({ deps, caller, params, body }) =>
      decideApproval(deps, caller.actor, { approvalId: params.approvalId, ...body }),
  }),
];
