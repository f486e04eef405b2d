import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/bulk.ts';

// Bulk sending (issue 28): one template launched once per row of a spreadsheet.
// 1. GET `${BULK_SHEET_PATH}/<templateId>[?lang=zh|en]`: an xlsx made for the template: per role its party
//    (person: name, phone; company: company name, handler phone, handler name), one column per field (its
//    label; a second row says the type), an optional title and an optional deadline (YYYY-MM-DD).
// 2. checkBulkSend (multipart: userType, templateId, file .xlsx/.csv): parsed on the server with limits, every
//    row checked before anything is sent; problems by spreadsheet row and column in the reader's language.
// 3. startBulkSend: a background job launches each good row exactly as a launch by hand (quota, readiness,
//    notices, webhooks); getBulkSend shows the progress and the rows; GET `${BULK_RESULTS_PATH}/<bulkId>` the
//    results as xlsx. A batch belongs to the account that checked it; others get 1101 NotFound.

export const BULK_SHEET_PATH = P.downloadBulkSheet.path;
export const BULK_RESULTS_PATH = P.downloadBulkResults.path;

/** The limits of an uploaded sheet. */
export const BULK_LIMITS = {
  fileBytes: 2 * 1024 * 1024,
  rows: 1000,
  columns: 50,
  /** Parsing time of one sheet, in milliseconds. */
  parseMs: 5000,
} as const;

export const zBulkStatus = z.enum(['checked', 'sending', 'done']);
export type BulkStatus = z.infer<typeof zBulkStatus>;
export const zBulkRowStatus = z.enum(['pending', 'sending', 'sent', 'failed', 'skipped']);
export type BulkRowStatus = z.infer<typeof zBulkRowStatus>;

/** A problem of one cell (column: its header as the sheet has it) or of a whole row (column null). */
export const zBulkProblem = z.object({
  row: z.number().int().describe('the spreadsheet row number, as the spreadsheet shows it'),
  column: z.string().nullable(),
  message: z.string(),
});
export type BulkProblem = z.infer<typeof zBulkProblem>;

export const zBulkCheck = z.object({
  bulkId: z.string(),
  /** Data rows read. */
  rows: z.number().int(),
  /** Rows without a problem (sendable). */
  good: z.number().int(),
  problems: z.array(zBulkProblem),
  /** Signings the account's quota allows now (each row is one). */
  quotaRemaining: z.number().int(),
});
export type BulkCheck = z.infer<typeof zBulkCheck>;

export const zBulkRow = z.object({
  row: z.number().int(),
  status: zBulkRowStatus,
  title: z.string(),
  /** The parties of the row as the sheet named them (name or company, phone). */
  parties: z.array(z.string()),
  flowId: z.string().nullable(),
  /** Why a row failed or was skipped, in the reader's language. */
  message: z.string().nullable(),
});
export type BulkRow = z.infer<typeof zBulkRow>;

export const zBulkSummary = z.object({
  bulkId: z.string(),
  templateId: z.string(),
  templateName: z.string().nullable(),
  fileName: z.string(),
  status: zBulkStatus,
  total: z.number().int(),
  good: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type BulkSummary = z.infer<typeof zBulkSummary>;

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

export const checkBulkSend = defineCall({
  call: P.checkBulkSend,
  auth: true,
  summary:
    'multipart/form-data: fields userType, templateId and file (.xlsx or .csv, at most 2 MB, 1,000 data rows, ' +
    '50 columns). Reads the sheet made for the template (headers in Chinese or English), checks every row ' +
    '(phones, names, required values, field types, dates, deadlines in the future, duplicate rows, unknown or ' +
    'unverified companies) and keeps the checked batch; nothing is sent. Refused (1100) when the file is not a ' +
    'sheet, is over a limit (named) or lacks a column of the template.',
  request: zBase.extend({ templateId: zId }),
  response: zBulkCheck,
});

export const startBulkSend = defineCall({
  call: P.startBulkSend,
  auth: true,
  summary:
    'Starts sending a checked batch in the background: one flow per good row, launched as by hand. Without ' +
    'onlyGood a batch with problems is refused (1100). A batch starts once.',
  request: zBase.extend({ bulkId: zId, onlyGood: z.boolean().default(false) }),
  response: zBulkSummary,
});

export const getBulkSend = defineCall({
  call: P.getBulkSend,
  auth: true,
  summary: 'A batch of the caller account: its progress and a page of its rows (by row number).',
  request: zBase.extend(zPageRequest.shape).extend({
    bulkId: zId,
    rowStatus: zBulkRowStatus.optional(),
  }),
  response: zBulkSummary.extend({ rows: zPage(zBulkRow) }),
});

export const listBulkSends = defineCall({
  call: P.listBulkSends,
  auth: true,
  summary: 'Batches of the caller account, newest first.',
  request: zBase.extend(zPageRequest.shape),
  response: zPage(zBulkSummary),
});

export const bulkCalls = [checkBulkSend, startBulkSend, getBulkSend, listBulkSends] as const;

// The integrator API (/open/v1/bulk-sends; server/open/routes/bulk-sends.ts).

/** One row: the sheet's headers (either language) as keys, the cells as values. */
const zOpenBulkRow = z.record(
  z.string().max(64),
  z.union([z.string().max(200), z.number(), z.boolean(), z.null()]),
);

export const zOpenBulkSendBody = z.object({
  templateId: zId,
  rows: z.array(zOpenBulkRow).min(1).max(BULK_LIMITS.rows),
  /** Start with the good rows even when some have problems (default: start only when every row is good). */
  onlyGood: z.boolean().default(false),
});
export const zOpenBulkSendAnswer = zBulkCheck.extend({
  /** Whether sending started (every row good, or onlyGood with at least one good row). */
  started: z.boolean(),
});
export const zOpenBulkIdParams = z.object({ bulkId: zId });
export const zOpenBulkQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(100),
});
