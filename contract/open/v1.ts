// Schemas of the integrator REST API (/open/v1, server/open/): the server validates with them, the OpenAPI
// document (/open/v1/openapi.json) is generated from them, and the JavaScript helper (clients/js/) takes its
// types from them. They reuse the workspace calls' schemas (contract/calls/) without `userType`: a key acts
// as its account, so the account kind comes from the key.
import { zCcList } from '../calls/cc-input.ts';
import { z } from 'zod';
import { zTermInput } from '../calls/term-input.ts';
import { bi } from '../bilingual.ts';
import { APPROVAL_STATUSES, decideApproval, zApprovalDetail, zApprovalSummary } from '../calls/approval.ts';
import { zDocumentInfo } from '../calls/document.ts';
import {
  launchFlow,
  listLaunchedFlows,
  remindSigners,
  cancelFlow,
  zFlowDetail,
  zContractAmount,
  zFlowSummary,
} from '../calls/flow.ts';
import { listTemplates, prepareTemplateLaunch, zTemplate, zTemplateSummary } from '../calls/template.ts';
import {
  createWebhookEndpoint,
  zWebhookDelivery,
  zWebhookEndpoint,
  zWebhookEndpointWithSecret,
} from '../calls/webhook.ts';
import { zPage } from '../envelope.ts';
import { zLetter } from '../calls/authorisation.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

export const zFlowIdParams = z.object({ flowId: zId });
export const zTemplateIdParams = z.object({ templateId: zId });
export const zDocumentIdParams = z.object({ documentId: zId });
export const zFlowDocumentParams = z.object({ flowId: zId, documentId: zId });

/** Query numbers arrive as text. */
const zPageQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

export const zAuthorisationIdParams = z.object({ letterId: zId });
export const zListAuthorisationsQuery = zPageQuery;
/** An authorisation letter as the integrator reads it (its PDF stays in the workspace). */
export const zAuthorisation = zLetter.omit({ pdfUrl: true, isMine: true });
export const zAuthorisationPage = zPage(zAuthorisation);

export const zListTemplatesQuery = zPageQuery.extend(listTemplates.request.pick({ keyword: true }).shape);
export const zTemplatePage = zPage(zTemplateSummary);
export { zTemplate };

export const zListFlowsQuery = zPageQuery.extend(
  listLaunchedFlows.request.pick({ keyword: true, dateFrom: true, dateTo: true, status: true }).shape,
);
export const zFlowPage = zPage(zFlowSummary);
export { zFlowDetail };

/** A PDF sent inline (base64), stored as a document of the key's account, to launch a flow with. */
export const zUploadDocumentBody = z.object({
  filename: z.string().trim().min(1).max(200).describe('file name shown to the signers, e.g. contract.pdf'),
  contentBase64: z.string().min(1).describe('the PDF, base64'),
});
export { zDocumentInfo };

/** From uploaded documents: steps, parties (person or company), positions or keywords, intent per party. */
export const zLaunchFromDocuments = launchFlow.request
  .omit({ userType: true, isQuick: true })
  .extend({ from: z.literal('documents') });

/** From a template: its field values and who fills each role; the template's steps and positions. */
export const zLaunchFromTemplate = prepareTemplateLaunch.request
  .omit({ userType: true, draftId: true })
  .extend({
    from: z.literal('template'),
    deadline: z.iso.datetime({ offset: true }).optional(),
    message: z.string().trim().max(500).optional(),
    amount: zContractAmount.optional(),
    cc: zCcList.optional().describe('copy recipients (抄送): name, phone, notifyProgress; never sign'),
    /** The contract's own term (issue 29), as from documents. */
    term: zTermInput.optional(),
  });

export const zLaunchFlowBody = z.discriminatedUnion('from', [zLaunchFromDocuments, zLaunchFromTemplate]);
export type LaunchFlowBody = z.input<typeof zLaunchFlowBody>;
export const zLaunched = launchFlow.response;

export const zCancelFlowBody = cancelFlow.request.pick({ reason: true });
export const zRemindBody = remindSigners.request.pick({ partyIds: true });
export const zReminded = remindSigners.response;

export const zFlowPartyParams = z.object({ flowId: zId, partyId: zId });
export const zSigningUrlBody = z.object({
  fromPtCode: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{1,31}$/)
    .optional()
    .describe('platform code the room is shown as (white-label); the default platform when absent'),
});
export const zSigningUrl = z.object({
  url: z
    .string()
    .describe('opens the party’s signing room once, without a login; put it in an iframe or a new tab'),
  expiresAt: z.string().describe('ISO time after which the URL no longer opens (10 minutes)'),
});

export const zDocumentQuery = z.object({
  version: z
    .enum(['current', 'original'])
    .default('current')
    .describe('current (with signatures so far) or original'),
});

// Webhooks: the workspace's endpoint calls (contract/calls/webhook.ts) without userType.
export const zWebhookEndpointParams = z.object({ endpointId: zId });
export const zWebhookDeliveryParams = z.object({ deliveryId: zId });
export const zCreateWebhookBody = createWebhookEndpoint.request.omit({ userType: true });
export { zWebhookEndpoint, zWebhookEndpointWithSecret, zWebhookDelivery };
export const zWebhookEndpointList = z.array(zWebhookEndpoint);
export const zWebhookDeliveryPage = zPage(zWebhookDelivery);
export const zListDeliveriesQuery = zPageQuery;

// Seal-use approval (issue 27): the key's company's requests; the key acts as its administrator.
export const zApprovalIdParams = z.object({ approvalId: zId });
export const zListApprovalsQuery = zPageQuery.extend({
  /** `all` every request of the company (default), `toMe` those naming the key's administrator, `mine` theirs. */
  scope: z.enum(['all', 'toMe', 'mine']).default('all'),
  status: z.enum(APPROVAL_STATUSES).optional(),
});
export const zApprovalPage = zPage(zApprovalSummary);
export const zDecideApprovalBody = decideApproval.request.omit({ userType: true, approvalId: true });
export { zApprovalDetail };
