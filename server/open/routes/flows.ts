// Signing flows of the key's account: launch (from uploaded documents or a template), list, read with each
// party's status, cancel, remind. Every rule is the flow and template modules' own (the services the
// workspace's calls use), so the API cannot launch what the workspace would refuse.
import {
  zCancelFlowBody,
  zFlowDetail,
  zFlowIdParams,
  zFlowPartyParams,
  zFlowPage,
  zLaunchFlowBody,
  zLaunched,
  zListFlowsQuery,
  zRemindBody,
  zReminded,
  zSigningUrl,
  zSigningUrlBody,
} from '#contract/open/v1.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from '../../http/app-error.ts';
import {
  F,
  cancelFlow,
  createEmbedLink,
  flowDetail,
  launch,
  listLaunched,
  remindSigners,
} from '../../modules/flow/index.ts';
import { launchDraft, prepareTemplateLaunch } from '../../modules/template/index.ts';
import { defineOpenRoute } from '../route.ts';

export const flowRoutes = [
  defineOpenRoute({
    method: 'POST',
    path: '/flows',
    operationId: 'launchFlow',
    tag: 'flows',
    summary:
      'Launches a signing flow from uploaded documents (`from: "documents"`) or a template (`from: "template"`).',
    description:
      'From documents: upload each PDF first (POST /documents), then name the steps (run in order; the parties ' +
      'of a step sign in parallel), each party (a person by phone, or a company by id or registered name with ' +
      'its handler’s phone), where it signs (PDF rectangle, millimetres or a keyword), what it applies and its ' +
      'intent check (sms, face or password). From a template: the values of its fields and who fills each role. ' +
      'Reserves one signing of the account’s quota and sends the first step its links. Status 201.',
    scope: 'flows:write',
    body: zLaunchFlowBody,
    response: zLaunched,
    status: 201,
    handler: async ({ deps, caller, body, ctx }) => {
      const { actor } = caller;
      const userType = actor.userType;
      if (body.from === 'documents') {
        const { from: _from, ...rest } = body;
        return launch(deps, actor, { ...rest, userType, isQuick: false }, ctx);
      }
      const draft = await prepareTemplateLaunch(deps, actor, {
        userType,
        templateId: body.templateId,
        title: body.title,
        values: body.values,
        assignments: body.assignments,
      });
      return launchDraft(
        deps,
        actor,
        {
          userType,
          draftId: draft.draftId,
          deadline: body.deadline,
          message: body.message,
          amount: body.amount,
          cc: body.cc,
          term: body.term,
        },
        ctx,
      );
    },
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/flows',
    operationId: 'listFlows',
    tag: 'flows',
    summary: 'Flows launched by the key’s account, newest first (filters: status, keyword, dates).',
    scope: 'flows:read',
    query: zListFlowsQuery,
    response: zFlowPage,
    handler: ({ deps, caller, query }) => listLaunched(deps, caller.actor, query),
  }),
  defineOpenRoute({
    method: 'GET',
    path: '/flows/:flowId',
    operationId: 'getFlow',
    tag: 'flows',
    summary:
      'One flow with its documents, each party’s status and the fields the parties fill with their values ' +
      '(an attachment with its name, size and SHA-256; a flow the account cannot see: 404).',
    scope: 'flows:read',
    params: zFlowIdParams,
    response: zFlowDetail,
    handler: ({ deps, caller, params }) => flowDetail(deps, { session: caller.actor }, params.flowId),
  }),
  defineOpenRoute({
    method: 'POST',
    path: '/flows/:flowId/cancel',
    operationId: 'cancelFlow',
    tag: 'flows',
    summary: 'Cancels a flow the account launched while it is being signed (its quota hold is released).',
    scope: 'flows:write',
    params: zFlowIdParams,
    body: zCancelFlowBody,
    response: zFlowDetail,
    handler: async ({ deps, caller, params, body, ctx }) => {
      await cancelFlow(deps, caller.actor, params.flowId, body.reason, ctx);
      return flowDetail(deps, { session: caller.actor }, params.flowId);
    },
  }),
  defineOpenRoute({
    method: 'POST',
    path: '/flows/:flowId/remind',
    operationId: 'remindSigners',
    tag: 'flows',
    summary:
      'Sends the link again to the parties now due to sign (or to `partyIds` among them); once per 10 minutes each.',
    scope: 'flows:write',
    params: zFlowIdParams,
    body: zRemindBody,
    response: zReminded,
    handler: async ({ deps, caller, params, body, ctx }) => {
      const reminded = await remindSigners(deps, caller.actor, params.flowId, body.partyIds, ctx);
      if (reminded === 0) throw new AppError(Code.Refused, F.remindTooSoon);
      return { reminded };
    },
  }),
  defineOpenRoute({
    method: 'POST',
    path: '/flows/:flowId/parties/:partyId/signing-url',
    operationId: 'createSigningUrl',
    tag: 'flows',
    summary: 'A short-lived URL that opens one party’s signing room without a login (embedded signing).',
    description:
      'For a party that can sign now (its turn, flow running). The URL opens the room once, within 10 minutes; ' +
      'the room is bound to the party’s phone, so its intent check (SMS code to that phone, face or signing ' +
      'password) still proves the signer. The URL does not prove the phone: before the room makes an account, ' +
      'records a real name or issues a certificate, the signer confirms the phone with an SMS code in the room, ' +
      'unless the platform trusts this key to assert identities. The room never logs the browser in. ' +
      'Show it in an iframe on an origin of FRAME_ANCESTORS: the room then ' +
      'posts `signingFinished` / `signingDeclined` to that origin ({source: "esign-platform", version: 1, event, ' +
      'payload: {flowId, partyId}}), and `signingRoomLost` when the frame cannot open its room (the URL already ' +
      'used, or a reload where the browser keeps nothing): ask for a new URL then. Another account’s flow or party: 404; a party that cannot sign now (not its turn, signed, flow ended): 409.',
    scope: 'flows:write',
    params: zFlowPartyParams,
    body: zSigningUrlBody,
    response: zSigningUrl,
    status: 201,
    handler: async ({ deps, caller, params, body }) =>
      createEmbedLink(
        deps,
        caller.actor,
        { ...params, fromPtCode: body.fromPtCode },
        { keyId: caller.keyId, assertsIdentity: caller.assertsIdentity },
      ),
  }),
];
