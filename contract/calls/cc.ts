// Copy recipients (抄送, issue 29). The launcher names them at launch (launchFlow, launchTemplateFlow and the open
// API's flow creation take `cc`) or adds one to an open flow (addFlowCc). A copy recipient never signs: each
// notice brings them a READ-ONLY link (`/ccView/<token>`, only its hash stored) to the flow's title, parties and
// progress and its documents; sent when the flow completes (the finished contract) and, with notifyProgress, at
// launch and at each party's signature too. The link keeps working after completion (that is its point);
// a cancelled, declined or expired flow's documents are refused (1100), its view still answers. Every view and
// download is an audit entry naming the recipient. A recipient whose phone has an account sees the flow in
// their message list and in listCopiedToMe.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/cc.ts';
import { zCcInput } from './cc-input.ts';
import { zFlowSummary, zPartyStatus } from './flow.ts';

export { CC_LIMIT, type CcInput, zCcInput, zCcList } from './cc-input.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));
const zCcToken = z.string().min(16).max(100);

/** A copy recipient as the launcher sees them (the phone masked). */
export const zCcRecipient = z.object({
  ccId: z.string(),
  name: z.string(),
  phoneMasked: z.string(),
  notifyProgress: z.boolean(),
  createdAt: z.string(),
  /** When one of their links last opened the view (null: never). */
  lastViewedAt: z.string().nullable(),
});
export type CcRecipient = z.infer<typeof zCcRecipient>;

/** What a copy recipient's link shows: read only. */
export const zCcView = zFlowSummary.extend({
  /** The recipient's own name, as the launcher typed it. */
  recipientName: z.string(),
  parties: z.array(
    z.object({
      step: z.number().int(),
      kind: z.enum(['person', 'company']),
      name: z.string().nullable(),
      companyName: z.string().nullable(),
      status: zPartyStatus,
      signedAt: z.string().nullable(),
    }),
  ),
  documents: z.array(z.object({ documentId: z.string(), name: z.string(), pages: z.number().int() })),
  /** Whether the documents may be downloaded now (not for a cancelled, declined or expired flow). */
  mayDownload: z.boolean(),
  /** Whether the audit report may be downloaded (a completed flow). */
  hasAuditReport: z.boolean(),
});
export type CcView = z.infer<typeof zCcView>;

export const getCcView = defineCall({
  call: P.getCcView,
  auth: false,
  summary:
    "A copy recipient's read-only view of a flow by the token of their link: title, parties and their progress, " +
    'the documents. An audit `view` entry names the recipient. Unknown token: 1312.',
  request: zBase.extend({ ccToken: zCcToken }),
  response: zCcView,
});

export const listFlowCc = defineCall({
  call: P.listFlowCc,
  auth: true,
  summary: "The copy recipients of one of the caller account's flows (another account's flow: 1101).",
  request: zBase.extend({ flowId: zId }),
  response: z.object({ list: z.array(zCcRecipient) }),
});

export const addFlowCc = defineCall({
  call: P.addFlowCc,
  auth: true,
  summary:
    "Adds a copy recipient to one of the caller account's open flows (1100 once it ended, or with 20 already, or " +
    'the same phone twice; 1101 another account). With notifyProgress they are told now; every recipient is told ' +
    'when the flow completes.',
  request: zBase.extend({ flowId: zId, cc: zCcInput }),
  response: z.object({ list: z.array(zCcRecipient) }),
});

export const zCopiedItem = zFlowSummary.extend({ ccId: z.string() });

export const listCopiedToMe = defineCall({
  call: P.listCopiedToMe,
  auth: true,
  summary:
    "Flows the logged-in person's phone was copied on (抄送我的), newest first, with pagination. Open one through " +
    'the link of its message.',
  request: zBase.extend(zPageRequest.shape),
  response: zPage(zCopiedItem),
});

export const openCopiedFlow = defineCall({
  call: P.openCopiedFlow,
  auth: true,
  summary:
    "A new read-only link (SPA path `/ccView/<token>`) for one of the flows copied to the logged-in person's phone " +
    "(an item of listCopiedToMe); another phone's recipient: 1101.",
  request: zBase.extend({ ccId: zId }),
  response: z.object({ link: z.string() }),
});

/** GET `${CC_DOWNLOAD_PATH}/<documentId>?ccToken=` and `${CC_DOWNLOAD_PATH}/report?ccToken=`. */
export const CC_DOWNLOAD_PATH = P.downloadCcDocument.path;

export const ccCalls = [getCcView, listFlowCc, addFlowCc, listCopiedToMe, openCopiedFlow] as const;
