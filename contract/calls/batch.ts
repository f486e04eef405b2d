// Batch signing (批量签署, issue 28): a person, or a company's administrator or handler, signs many of the flows
// waiting for them with ONE intent check. The batch is prepared with the chosen parties and the seals (or the
// drawn signature) chosen once; the intent check asked is the strictest the chosen parties need (face >
// signing password > SMS code); once proven, the server signs each party in the background, exactly as its
// signing room would (its own positions, the permission checks, seal-use approval), and reports each result.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase, zPage } from '../envelope.ts';
import * as P from '../paths/batch.ts';
import { signDocument, zApplies, zAppRoute, zIntent } from './flow.ts';
import { zSmsCode } from './session.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));
const zIsoTime = z.iso.datetime({ offset: true });

/** Parties in one batch at most. */
export const MAX_BATCH_PARTIES = 500;

export const zBatchSignable = z.object({
  flowId: z.string(),
  partyId: z.string(),
  title: z.string(),
  initiatorName: z.string().nullable(),
  initiatorCompanyName: z.string().nullable(),
  templateId: z.string().nullable(),
  /** The template's name while the template exists (the batch screen's template filter offers these). */
  templateName: z.string().nullable(),
  createdAt: z.string(),
  deadline: z.string(),
  documentNames: z.array(z.string()),
  partyKind: z.enum(['person', 'company']),
  /** The company the party signs for (company parties). */
  companyName: z.string().nullable(),
  /** The intent check the launcher chose for the party. */
  intent: zIntent,
  /** What the party applies: which seals the batch's seal choice must offer. */
  applies: zApplies,
});
export type BatchSignable = z.infer<typeof zBatchSignable>;

export const listBatchSignable = defineCall({
  call: P.listBatchSignable,
  auth: true,
  summary:
    'Every flow waiting for the caller now (its party pending: a person session, parties of its phone; a company ' +
    'session, the parties of the company it may sign for), newest first, with what each needs (intent check, ' +
    'seals). Filters: keyword, template, sender (initiator or initiating company name), creation date range; up ' +
    'to 500 a page, so a whole selection fits one page.',
  request: zBase.extend({
    pageNum: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(MAX_BATCH_PARTIES).default(100),
    keyword: z.string().trim().max(50).optional(),
    templateId: zId.optional(),
    sender: z.string().trim().max(50).optional(),
    dateFrom: zIsoTime.optional(),
    dateTo: zIsoTime.optional(),
  }),
  response: zPage(zBatchSignable),
});

/** The seals (or the drawn signature) chosen once for every party: signDocument's choice, as the room makes it. */
export const zSealChoice = signDocument.request.pick({
  companySealId: true,
  legalPersonSealId: true,
  personSealId: true,
  signaturePng: true,
});
export type SealChoice = z.infer<typeof zSealChoice>;

export const prepareSignBatch = defineCall({
  call: P.prepareSignBatch,
  auth: true,
  summary:
    'Prepares a batch of the parties chosen (at most 500, each one the caller may sign for, else 1101) with the ' +
    'seals chosen once. Answers the intent check the batch needs, the strictest of the parties: face, then ' +
    "signing password, then SMS code; for an SMS code it is sent to the caller's phone (unless sendCode is false: " +
    'then startSignBatch waits for sendSignBatchCode).',
  request: zBase.extend({
    partyIds: z
      .array(zId)
      .min(1, bi('choose at least one flow', '请至少选择一份待签文件'))
      .max(MAX_BATCH_PARTIES, bi('at most 500 flows in one batch', '一次最多批量签署 500 份')),
    sealChoice: zSealChoice,
    sendCode: z.boolean().default(true),
  }),
  response: z.object({
    batchId: z.string(),
    total: z.number().int(),
    intent: zIntent,
    /** The SMS code sent (intent 'sms' and sendCode): where, and when another may be asked. */
    code: z
      .object({
        phoneMasked: z.string(),
        expiresInSeconds: z.number().int(),
        resendAfterSeconds: z.number().int(),
      })
      .nullable(),
  }),
});

export const sendSignBatchCode = defineCall({
  call: P.sendSignBatchCode,
  auth: true,
  summary:
    "Sends (again) the SMS code that confirms a prepared batch to the caller's phone (the batch's alone).",
  request: zBase.extend({ batchId: zId }),
  response: z.object({
    phoneMasked: z.string(),
    expiresInSeconds: z.number().int(),
    resendAfterSeconds: z.number().int(),
  }),
});

export const startSignBatchFace = defineCall({
  call: P.startSignBatchFace,
  auth: true,
  summary:
    "A prepared batch whose intent check is 'face': starts the identity provider's face check of the caller " +
    '(real-name verified) for this batch and answers the page to open; the provider returns to signUrl. Only the ' +
    "provider's signed result decides; startSignBatch then spends it. A batch of another check: 1100.",
  request: zBase.extend({
    batchId: zId,
    deviceType: z.enum(['h5', 'pc']).default('pc'),
    /** The batch page's route to return to after a passed check (a route of this app). */
    signUrl: zAppRoute,
  }),
  response: z.object({ url: z.string(), expiresInSeconds: z.number().int() }),
});

export const BATCH_STATUSES = ['prepared', 'running', 'done'] as const;
export const zSignBatch = z.object({
  batchId: z.string(),
  status: z.enum(BATCH_STATUSES),
  intent: zIntent,
  total: z.number().int(),
  signed: z.number().int(),
  failed: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  items: z.array(
    z.object({
      flowId: z.string(),
      partyId: z.string(),
      title: z.string(),
      status: z.enum(['pending', 'signed', 'failed']),
      /** Why it was not signed (in the reader's language), with the refusal's code (e.g. 1330, 1303). */
      error: z.object({ code: z.number().int(), msg: z.string() }).nullable(),
    }),
  ),
});
export type SignBatch = z.infer<typeof zSignBatch>;

export const startSignBatch = defineCall({
  call: P.startSignBatch,
  auth: true,
  summary:
    'Proves the intent ONCE for a prepared batch (the SMS code sent for it, the signing password, or a face ' +
    'check of the caller passed for this batch through startSignBatchFace within 10 minutes, used once) and ' +
    'starts signing it in the background. A wrong code signs nothing (1200), a missing or failed face check ' +
    'neither (1307); a batch started before is refused (1100). Answers the batch as getSignBatch.',
  request: zBase.extend({
    batchId: zId,
    smsCode: zSmsCode.optional(),
    signingPassword: z.string().max(64).optional(),
  }),
  response: zSignBatch,
});

export const getSignBatch = defineCall({
  call: P.getSignBatch,
  auth: true,
  summary: "A batch of the caller's: progress and each party's result (another's is 1101).",
  request: zBase.extend({ batchId: zId }),
  response: zSignBatch,
});

export const batchCalls = [
  listBatchSignable,
  prepareSignBatch,
  sendSignBatchCode,
  startSignBatchFace,
  startSignBatch,
  getSignBatch,
] as const;
