// The contract centre (issue 29): every flow the account sent (launched) or received (it is a party: the
// person, or its company), found by a full-text search (titles and document names, party names, a party's
// phone in full only, the values signers typed into fields) and filters; the account's own tags and folders
// (a company's are the company's, shared by its members; a person's are the person's), saved views per user,
// and a zip of the selected contracts' PDFs with their audit reports (more than 20: built in the background).
// Another account's flow, tag, folder, view or zip id answers 1101, as an unknown one.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/centre.ts';
import { zFlowStatus } from './flow.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));
const zDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, bi('a date is YYYY-MM-DD', '日期格式为 YYYY-MM-DD'))
  .optional();

/** Up to this many flows are zipped at once, in the request; more are zipped by a background job. */
export const CENTRE_ZIP_NOW = 20;
/** A ready zip is kept this many days, then expired (its file removed; make a new one). */
export const CENTRE_ZIP_KEEP_DAYS = 7;
/** At most this many flows per selection (tag, move, zip). */
export const CENTRE_SELECTION_MAX = 500;

export const CENTRE_SORTS = ['launchedDesc', 'launchedAsc', 'completedDesc', 'titleAsc'] as const;

/** What a search looks for; a saved view keeps one. Every part is optional (none: every visible flow). */
export const zCentreFilter = z.object({
  /**
   * Words in the title or a document name, a party's (or its company's) name, or a field value a signer
   * typed; or a party's phone, matched in full only (a partial phone matches no phone).
   */
  keyword: z.string().trim().max(100).optional(),
  status: zFlowStatus.optional(),
  /** Which date the range reads: the launch (default) or the completion. */
  dateField: z.enum(['launched', 'completed']).optional(),
  /** Inclusive first and last day (Beijing time), YYYY-MM-DD. */
  dateFrom: zDay,
  dateTo: zDay,
  templateId: zId.optional(),
  /** The launching user. */
  senderUserId: zId.optional(),
  /** Flows carrying any of these tags of the account. */
  tagIds: z.array(zId).max(20).optional(),
  folderId: zId.optional(),
  /** sent: launched by the account; received: the account is a party; all (default): either. */
  direction: z.enum(['all', 'sent', 'received', 'copied']).optional(),
  sort: z.enum(CENTRE_SORTS).optional(),
});
export type CentreFilter = z.infer<typeof zCentreFilter>;

const zColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, bi('a colour is #rrggbb', '颜色格式为 #rrggbb'));
const zLabelName = z
  .string()
  .trim()
  .min(1, bi('enter a name', '请输入名称'))
  .max(30, bi('a name has at most 30 characters', '名称最多 30 个字'));

export const zCentreTag = z.object({ tagId: z.string(), name: z.string(), colour: z.string() });
export type CentreTag = z.infer<typeof zCentreTag>;
export const zCentreFolder = z.object({ folderId: z.string(), name: z.string() });
export type CentreFolder = z.infer<typeof zCentreFolder>;
export const zCentreView = z.object({ viewId: z.string(), name: z.string(), filter: zCentreFilter });
export type CentreView = z.infer<typeof zCentreView>;

/** One contract of the centre's list. */
export const zContractItem = z.object({
  flowId: z.string(),
  title: z.string(),
  status: zFlowStatus,
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  deadline: z.string(),
  initiatorUserId: z.string(),
  initiatorName: z.string().nullable(),
  initiatorCompanyName: z.string().nullable(),
  templateId: z.string().nullable(),
  /** Launched by the account. */
  isSent: z.boolean(),
  /** The account is a party. */
  isReceived: z.boolean(),
  /** The account (a person) is only a copy recipient (抄送) of it. */
  isCopied: z.boolean(),
  documentNames: z.array(z.string()),
  /** Every party: name, company, masked phone and status. */
  parties: z.array(
    z.object({
      kind: z.enum(['person', 'company']),
      name: z.string().nullable(),
      companyName: z.string().nullable(),
      phone: z.string(),
      status: z.string(),
    }),
  ),
  /** The account's own tags on it and its folder for the account. */
  tags: z.array(zCentreTag),
  folder: zCentreFolder.nullable(),
});
export type ContractItem = z.infer<typeof zContractItem>;

export const searchContracts = defineCall({
  call: P.searchContracts,
  auth: true,
  summary:
    "The contracts the account sees (sent or received), the filter's matches, sorted and paged " +
    '(pageSize up to 100). An unknown or foreign tag, folder or template id in the filter answers 1101.',
  request: zBase.extend(zPageRequest.shape).extend({ filter: zCentreFilter.default({}) }),
  response: zPage(zContractItem),
});

export const getCentreLabels = defineCall({
  call: P.getCentreLabels,
  auth: true,
  summary:
    "The account's tags and folders, the caller's saved views, and the senders and templates its flows name " +
    "(the filter bar's choices).",
  request: zBase,
  response: z.object({
    tags: z.array(zCentreTag),
    folders: z.array(zCentreFolder),
    views: z.array(zCentreView),
    senders: z.array(z.object({ userId: z.string(), name: z.string() })),
    templates: z.array(z.object({ templateId: z.string(), name: z.string() })),
  }),
});

export const saveCentreTag = defineCall({
  call: P.saveCentreTag,
  auth: true,
  summary: 'Creates a tag of the account (no tagId) or renames/recolours one. A name used twice: 1100.',
  request: zBase.extend({ tagId: zId.optional(), name: zLabelName, colour: zColour }),
  response: zCentreTag,
});

export const deleteCentreTag = defineCall({
  call: P.deleteCentreTag,
  auth: true,
  summary: 'Deletes a tag of the account and takes it off every flow (the flows stay).',
  request: zBase.extend({ tagId: zId }),
  response: z.null(),
});

export const saveCentreFolder = defineCall({
  call: P.saveCentreFolder,
  auth: true,
  summary: 'Creates a folder of the account (no folderId) or renames one. A name used twice: 1100.',
  request: zBase.extend({ folderId: zId.optional(), name: zLabelName }),
  response: zCentreFolder,
});

export const deleteCentreFolder = defineCall({
  call: P.deleteCentreFolder,
  auth: true,
  summary: 'Deletes a folder of the account; its flows are then in no folder (the flows stay).',
  request: zBase.extend({ folderId: zId }),
  response: z.null(),
});

const zSelection = z
  .array(zId)
  .min(1, bi('select at least one contract', '请至少选择一份合同'))
  .max(CENTRE_SELECTION_MAX, bi('select at most 500 contracts', '最多选择 500 份合同'));

export const tagContracts = defineCall({
  call: P.tagContracts,
  auth: true,
  summary:
    'Puts a tag of the account on the selected flows (isOn) or takes it off. A flow the account does not ' +
    'see, or a foreign tag: 1101 and nothing changes.',
  request: zBase.extend({ flowIds: zSelection, tagId: zId, isOn: z.boolean() }),
  response: z.object({ changed: z.number().int() }),
});

export const moveContracts = defineCall({
  call: P.moveContracts,
  auth: true,
  summary:
    'Puts the selected flows in a folder of the account (null: out of any folder). A flow the account does ' +
    'not see, or a foreign folder: 1101 and nothing changes.',
  request: zBase.extend({ flowIds: zSelection, folderId: zId.nullable() }),
  response: z.object({ changed: z.number().int() }),
});

export const saveCentreView = defineCall({
  call: P.saveCentreView,
  auth: true,
  summary: "Saves the caller's view (a name and a filter) for this account; a name used twice replaces it.",
  request: zBase.extend({ viewId: zId.optional(), name: zLabelName, filter: zCentreFilter }),
  response: zCentreView,
});

export const deleteCentreView = defineCall({
  call: P.deleteCentreView,
  auth: true,
  summary: "Deletes one of the caller's saved views.",
  request: zBase.extend({ viewId: zId }),
  response: z.null(),
});

export const zContractsZip = z.object({
  zipId: z.string(),
  /** `expired`: kept CENTRE_ZIP_KEEP_DAYS after it was ready, then its file removed. */
  status: z.enum(['building', 'ready', 'failed', 'expired']),
  total: z.number().int(),
  /** Flows zipped so far. */
  done: z.number().int(),
  size: z.number().int().nullable(),
  /** GET URL once ready. */
  downloadUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type ContractsZip = z.infer<typeof zContractsZip>;

export const startContractsZip = defineCall({
  call: P.startContractsZip,
  auth: true,
  summary:
    "A zip of the selected flows: per flow a folder with each document's signed PDF (the current version " +
    'while not completed) and, once completed, its audit report. Up to 20 flows: ready in the answer; more: ' +
    'built by a background job (status building; read progress with getContractsZip). A flow the account ' +
    'does not see: 1101.',
  request: zBase.extend({ flowIds: zSelection }),
  response: zContractsZip,
});

export const getContractsZip = defineCall({
  call: P.getContractsZip,
  auth: true,
  summary: "A zip's progress, and its download URL once ready (the caller's own zips only, else 1101).",
  request: zBase.extend({ zipId: zId }),
  response: zContractsZip,
});

/** GET `${CONTRACTS_ZIP_PATH}/<zipId>`: the zip's bytes (the session of the user who made it). */
export const CONTRACTS_ZIP_PATH = P.downloadContractsZip.path;

export const centreCalls = [
  searchContracts,
  getCentreLabels,
  saveCentreTag,
  deleteCentreTag,
  saveCentreFolder,
  deleteCentreFolder,
  tagContracts,
  moveContracts,
  saveCentreView,
  deleteCentreView,
  startContractsZip,
  getContractsZip,
] as const;
