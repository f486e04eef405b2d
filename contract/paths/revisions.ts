// The paths of contract/calls/revisions.ts (zod-free: src/api/ imports them).
import { csign } from '../call-path.ts';

export const reviseFlowDocument = /* @__PURE__ */ csign('reviseFlowDocument', 'upload');
export const listFlowRevisions = /* @__PURE__ */ csign('listFlowRevisions');
export const compareFlowRevisions = /* @__PURE__ */ csign('compareFlowRevisions');
// GET `${path}/<flowId>/<revision>/<documentId>[?roomToken=...]`: one revision's PDF, for the flow's readers.
export const downloadFlowRevision = /* @__PURE__ */ csign('downloadFlowRevision', 'download');
