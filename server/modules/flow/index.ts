// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
// What other modules use today: template launches from a template (launch, findFlow, F, Account), seal
// names the room a signer acts in (roomOf), sign-config and template type accounts (Account), verify reads the
// flow of a document named by its verification code (findFlow), webhook listens to flowEvent. The integrator
// API (server/open/) uses the same services as the workspace's calls: launch, detail, listLaunched, cancel,
// remind and the downloads.
export { launch } from './launch.ts';
export { findFlow } from './model.ts';
export { type FlowEvent, flowEvent } from './hooks.ts';
// Authorisation letters (issue 27) answer these: automatic signing's cover and uses, a member letter's number.
export { type AutoSignCover, autoSignCover, memberLetterCover, useLetter } from './hooks.ts';
export { createEmbedLink } from './room.ts';
export { F } from './texts.ts';
export { detail as flowDetail, listLaunched } from './query.ts';
export { cancel as cancelFlow } from './end.ts';
export { remind as remindSigners } from './remind.ts';
export {
  type PdfDownload,
  downloadAuditReport,
  downloadDocument,
  downloadSignedPdf,
} from './documents.ts';
// Copy recipients (issue 29): the flows copied to a phone, for the contract centre's "copied to me".
export { ccFlowIdsOfPhone } from './cc.ts';
// The contract centre's search statement (issue 29), for the benchmark's plans (bench/centre.ts).
export { type CentreQuery, type CentreScope, searchStatement } from './centre.ts';
// Void by agreement (issue 29): verify names the rescission of a voided contract's signed PDF.
export { rescissionNoteOf, rescissionNoteOfFile } from './rescission.ts';
