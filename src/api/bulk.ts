// Typed client of contract/calls/bulk.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/bulk.ts';
import * as P from '#contract/paths/bulk.ts';
import { call } from './http.ts';
import { downloadAt, upload } from './transfer.ts';

export type { BulkCheck, BulkProblem, BulkRow, BulkRowStatus, BulkSummary } from '#contract/calls/bulk.ts';

/** The largest sheet the server reads (contract BULK_LIMITS.fileBytes). */
export const BULK_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** The xlsx to fill for a template, with headers in `lang`. */
export const bulkSheetUrl = (templateId: string, lang: 'zh' | 'en') =>
  downloadAt(P.downloadBulkSheet, [templateId], { lang });

/** A batch's results as xlsx, in `lang`. */
export const bulkResultsUrl = (bulkId: string, lang: 'zh' | 'en') =>
  downloadAt(P.downloadBulkResults, [bulkId], { lang });

/** Uploads a filled sheet for a template: checked on the server, nothing sent. */
export function checkBulkSend(templateId: string, file: File | Blob, filename = 'sheet.xlsx') {
  const form = new FormData();
  form.append('templateId', templateId);
  form.append('file', file, file instanceof File ? file.name : filename);
  return upload<typeof calls.checkBulkSend>(P.checkBulkSend, form);
}

export const startBulkSend = call<typeof calls.startBulkSend>(P.startBulkSend);

export const getBulkSend = call<typeof calls.getBulkSend>(P.getBulkSend);

export const listBulkSends = call<typeof calls.listBulkSends>(P.listBulkSends);
