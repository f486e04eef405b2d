// Launch drafts (issue 29): the launch screen's form saved on the server by a user of an account and resumed
// later (also on another device). The form is the client's own JSON (kept as given, at most 256 KB); the
// documents it uses are checked to be the account's uploads not launched yet. A draft is the user's own: any
// other user, of the account or not, gets 1101. Deleted on request, and once its documents are launched.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/drafts.ts';
import { FLOW_LIMITS } from './flow.ts';

const zId = z.uuid();
export const DRAFT_FORM_MAX_BYTES = 256 * 1024;

export const zLaunchDraftSummary = z.object({
  draftId: z.string(),
  title: z.string(),
  documentCount: z.number().int(),
  updatedAt: z.string(),
});
export type LaunchDraftSummary = z.infer<typeof zLaunchDraftSummary>;

export const saveLaunchDraft = defineCall({
  call: P.saveLaunchDraft,
  auth: true,
  summary:
    "Saves the launch screen's form as a draft of the caller (a new one, or `draftId` replaced). 1100 for a " +
    "document that is not the account's upload or already launched, or a 101st draft; 1001 for a form over 256 KB; " +
    "another user's draft 1101.",
  request: zBase.extend({
    draftId: zId.optional(),
    title: z.string().trim().max(100).default(''),
    form: z
      .record(z.string(), z.unknown())
      .refine(
        (f) => JSON.stringify(f).length <= DRAFT_FORM_MAX_BYTES,
        bi('the draft is too large', '草稿过大'),
      ),
    documentIds: z.array(zId).max(FLOW_LIMITS.documents).default([]),
  }),
  response: zLaunchDraftSummary,
});

export const listLaunchDrafts = defineCall({
  call: P.listLaunchDrafts,
  auth: true,
  summary: "The caller's launch drafts in the acting account, newest first (at most 100).",
  request: zBase,
  response: z.object({ items: z.array(zLaunchDraftSummary) }),
});

export const getLaunchDraft = defineCall({
  call: P.getLaunchDraft,
  auth: true,
  summary:
    'One draft of the caller with its form; `documentIds` only the uploads still usable (a deleted or launched one ' +
    'is dropped and counted in `droppedDocuments`). Others 1101.',
  request: zBase.extend({ draftId: zId }),
  response: zLaunchDraftSummary.extend({
    form: z.record(z.string(), z.unknown()),
    documentIds: z.array(z.string()),
    droppedDocuments: z.number().int(),
  }),
});

export const deleteLaunchDraft = defineCall({
  call: P.deleteLaunchDraft,
  auth: true,
  summary: "Deletes one of the caller's drafts (its uploads stay). Others 1101.",
  request: zBase.extend({ draftId: zId }),
  response: z.null(),
});

export const draftCalls = [saveLaunchDraft, listLaunchDrafts, getLaunchDraft, deleteLaunchDraft] as const;
