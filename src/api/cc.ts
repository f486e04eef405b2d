// Typed client of contract/calls/cc.ts (types only from the contract: no zod in the bundle): copy recipients
// (抄送, issue 29). The read-only view (src/features/cc) imports this, so nothing here may pull zod or antd.
import type * as calls from '#contract/calls/cc.ts';
import * as P from '#contract/paths/cc.ts';
import { call } from './http.ts';
import { downloadAt } from './transfer.ts';

export type { CcInput } from '#contract/calls/cc-input.ts';
export type { CcRecipient, CcView } from '#contract/calls/cc.ts';
export { CC_LIMIT } from '#contract/rules/cc.ts';
export { CC_VIEW_ROUTE } from '#contract/paths/cc.ts';

export const getCcView = call<typeof calls.getCcView>(P.getCcView);
export const listFlowCc = call<typeof calls.listFlowCc>(P.listFlowCc);
export const addFlowCc = call<typeof calls.addFlowCc>(P.addFlowCc);
export const listCopiedToMe = call<typeof calls.listCopiedToMe>(P.listCopiedToMe);
export const openCopiedFlow = call<typeof calls.openCopiedFlow>(P.openCopiedFlow);

/** GET URL of a document for a copy recipient (the signed PDF once completed). */
export const ccDocumentUrl = (ccToken: string, documentId: string) =>
  downloadAt(P.downloadCcDocument, [documentId], { ccToken });

/** GET URL of the audit report of a completed flow, for a copy recipient. */
export const ccReportUrl = (ccToken: string) => downloadAt(P.downloadCcDocument, ['report'], { ccToken });
