import { z } from 'zod';
import { zTermInput } from './term-input.ts';
import { SEAL_TYPES } from '../enums.ts';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/flow.ts';
import { zDocumentInfo } from './document.ts';
import { zPhone, zSmsCode } from './session.ts';
import { zCcList } from './cc-input.ts';
import { zIdNumber, zPersonName } from './person.ts';
import { bi } from '../bilingual.ts';
import { FIELD_LIMITS } from '../rules/fields.ts';
import { zFieldDefinition, zFlowField, zRoomFieldValue } from './fields.ts';

// Signing flows. A flow has documents and steps in order; the parties of one step sign in parallel, the
// next step starts when every party of the current one has signed. Each party gets a link
// `/singingRoom/:linkType/:linkCode` (linkType 1 person, 2 company; linkCode 32 random base64url chars,
// stored only hashed) by message. Opening the link: signingRoomLoginByLinkCode with the party's phone and an
// SMS code gives a `roomToken` scoped to that ONE party of that ONE flow; a logged-in user gets the same
// token from signingRoomLogin. Every signing-room call takes the roomToken in its body (GET downloads take
// `?roomToken=`), so a room never acts for more than its party and needs no cookie.
//
// Positions: per party and document ONE rectangle where the party's appearance goes — the seal (or drawn
// signature), with the legal-person seal beside it and the date below when the party applies them — plus
// a cross-page seal at the right edge of every page when asked. Each party's signature on a document is ONE
// incremental update of the PDF, made with the party's own certificate (person: the person's; company: the
// company's, applied by an administrator or an operator the seal is authorised to).

/** Flow states. */
export const FlowStatus = {
  /** Being prepared (documents stamped with their verification footer); not yet sent. */
  Draft: 'draft',
  Signing: 'signing',
  Completed: 'completed',
  Declined: 'declined',
  Expired: 'expired',
  Cancelled: 'cancelled',
} as const;
export type FlowStatus = (typeof FlowStatus)[keyof typeof FlowStatus];
export const zFlowStatus = z.enum(['draft', 'signing', 'completed', 'declined', 'expired', 'cancelled']);

/** A party's state. `waiting`: its step has not started; `pending`: its turn now. */
export const PartyStatus = {
  Waiting: 'waiting',
  Pending: 'pending',
  Signed: 'signed',
  Declined: 'declined',
  /** The flow ended (cancelled, declined by another party, expired) before this party signed. */
  Closed: 'closed',
} as const;
export type PartyStatus = (typeof PartyStatus)[keyof typeof PartyStatus];
export const zPartyStatus = z.enum(['waiting', 'pending', 'signed', 'declined', 'closed']);

/** linkType of `/singingRoom/:linkType/:linkCode`. */
export const LinkType = { Person: 1, Company: 2 } as const;
export type LinkType = (typeof LinkType)[keyof typeof LinkType];

/** Largest number of documents, steps and parties of one flow. */
export const FLOW_LIMITS = { documents: 10, steps: 10, partiesPerStep: 10, parties: 30 } as const;
/** Default deadline when a launch names none: 7 days. */
export const DEFAULT_DEADLINE_DAYS = 7;
/** "Remind every N days": the range a launcher may choose. */
export const REMIND_EVERY_DAYS = { min: 1, max: 30 } as const;

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));
const zIsoTime = z.iso.datetime({ offset: true });
const zSealType = z
  .number()
  .int()
  .refine(
    (v) => (SEAL_TYPES as readonly number[]).includes(v),
    bi(
      'sealType must be 1, 101, 102, 103, 104, 105 or 99',
      'sealType 只能是 1、101、102、103、104、105 或 99',
    ),
  );

/**
 * Where a party's appearance goes on one document, in one of three ways:
 * - `rect`: [x1, y1, x2, y2] in PDF points on `page`, origin at the bottom-left of the page's MediaBox;
 * - `mm`: {left, top, width, height} in millimetres from the page's top-left corner (what a drag on a rendered
 *   page gives: mm = px / renderedWidthPx * widthPt / PT_PER_MM);
 * - `keyword`: the text to find (its `occurrence`-th hit, 1-based; without one, the hit followed by sealing or
 *   signing wording such as 盖章/签字/"(Seal)", else one at a signature line, else the first); centred on it,
 *   at the seal's natural size unless widthMm/heightMm are given. Refused at launch when the text is absent.
 * `page` is 1-based.
 */
export const zPosition = z.union([
  z.object({
    documentId: zId,
    page: z.number().int().min(1),
    rect: z.tuple([z.number(), z.number(), z.number(), z.number()]).describe('[x1, y1, x2, y2] PDF points'),
  }),
  z.object({
    documentId: zId,
    page: z.number().int().min(1),
    mm: z
      .object({
        left: z.number().min(0),
        top: z.number().min(0),
        width: z.number().positive().max(500),
        height: z.number().positive().max(500),
      })
      .describe('millimetres from the top-left corner'),
  }),
  z.object({
    documentId: zId,
    keyword: z.string().trim().min(1).max(50),
    occurrence: z.number().int().min(1).optional(),
    widthMm: z.number().positive().max(500).optional(),
    heightMm: z.number().positive().max(500).optional(),
  }),
]);
export type Position = z.infer<typeof zPosition>;

/**
 * A field the party fills in the signing room (issue 28; contract/calls/fields.ts), placed like a signature
 * position (rect, mm or keyword: the keyword's hit, at widthMm x heightMm, default 50 x 8 mm).
 */
export const zPartyFieldInput = zFieldDefinition.extend({ position: zPosition });
export type PartyFieldInput = z.input<typeof zPartyFieldInput>;
const zPartyFields = z
  .array(zPartyFieldInput)
  .max(FIELD_LIMITS.perParty)
  .default([])
  .refine(
    (f) => new Set(f.map((x) => x.key)).size === f.length,
    bi('two fields have the same key', '字段标识重复'),
  );

/** What a party applies (SEALS: SPEC §3 type codes). */
export const zApplies = z.object({
  /** Company parties: the type of company seal to apply (e.g. 102 contract seal); null/absent for none. */
  companySealType: zSealType.nullable().optional(),
  /**
   * Company parties: the launcher does not insist on companySealType: the signer applies any company seal they
   * may use (not the legal-person seal), companySealType (or null) being only the one offered first.
   */
  anyCompanySeal: z.boolean().optional(),
  /** Company parties: also the legal-person seal (type 101), beside the company seal. */
  legalPersonSeal: z.boolean().default(false),
  /** A person's signature (person parties always; company parties: the operator's own, beside the seal). */
  personSignature: z.boolean().default(false),
  /** The signing date printed below the appearance. */
  date: z.boolean().default(false),
  /** A cross-page (riding) seal at the right edge of every page, in the same update. */
  crossPageSeal: z.boolean().default(false),
});
export type Applies = z.infer<typeof zApplies>;

/**
 * The intent check the launcher chose for a party, asked in the room right before the signature: an SMS code
 * to the signer's phone, a face check through the identity provider (a passed result for this party, at most
 * 10 minutes old, used once), or the signer's signing password (setSigningPassword). Default 'sms'.
 */
export const INTENT_CHECKS = ['sms', 'face', 'password'] as const;
export const zIntent = z.enum(INTENT_CHECKS);
export type IntentCheck = z.infer<typeof zIntent>;

export const zPartyInput = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('person'),
      name: z.string().trim().min(1, bi('enter the signer name', '请输入签署人姓名')).max(32),
      /** The signer's phone, or `userId`: a user chosen in the signer picker (chooseUserList). */
      phone: zPhone.optional(),
      userId: zId.optional(),
      intent: zIntent.default('sms'),
      applies: zApplies.default({
        legalPersonSeal: false,
        personSignature: true,
        date: false,
        crossPageSeal: false,
      }),
      positions: z
        .array(zPosition)
        .min(1, bi('place the signature on at least one document', '请至少在一份文件上放置签名'))
        .max(FLOW_LIMITS.documents),
      /** Fields this party fills in the room before signing. */
      fields: zPartyFields,
      /** The party may hand its turn to someone else (reassign, issue 29); default allowed. */
      allowReassign: z.boolean().default(true),
    })
    .refine((p) => p.phone || p.userId, {
      message: bi('enter the signer phone or choose the signer', '请输入签署人手机号或选择签署人'),
      path: ['phone'],
    }),
  z
    .object({
      kind: z.literal('company'),
      /** A verified company of the platform: by id, or by its exact registered name. */
      companyId: zId.optional(),
      companyName: z.string().trim().min(2).max(64).optional(),
      /** Phone of the administrator or operator who receives the link and applies the seal, or `operatorUserId`:
       * a member chosen in the picker (chooseUserOperatorList, which answers the company's administrators only). */
      operatorPhone: zPhone.optional(),
      operatorUserId: zId.optional(),
      operatorName: z.string().trim().max(32).optional(),
      /**
       * A company that has not opened e-signature yet, named by `companyName`: its handler opens it from the
       * signing room (company name fixed, credit code, legal-person check) and signs with the seal issued then.
       * Without it an unknown or unopened company is refused.
       */
      inviteToOpen: z.boolean().default(false),
      intent: zIntent.default('sms'),
      applies: zApplies,
      positions: z
        .array(zPosition)
        .min(1, bi('place the seal on at least one document', '请至少在一份文件上放置印章'))
        .max(FLOW_LIMITS.documents),
      /** Fields this party's handler fills in the room before sealing. */
      fields: zPartyFields,
      /** The party may hand its turn to another handler (reassign, issue 29); default allowed. */
      allowReassign: z.boolean().default(true),
    })
    .refine((p) => p.operatorPhone || p.operatorUserId, {
      message: bi('enter the handler phone or choose the handler', '请输入经办人手机号或选择经办人'),
      path: ['operatorPhone'],
    }),
]);
export type PartyInput = z.input<typeof zPartyInput>;

/**
 * The contract's amount in yuan (two decimals at most), when the launcher states one: a company's seal-use
 * approval may apply only above an amount. Stored in fen.
 */
export const zContractAmount = z
  .number()
  .min(0, bi('the amount cannot be negative', '金额不能为负数'))
  .max(1e12, bi('the amount is too large', '金额过大'))
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, bi('at most two decimals', '最多两位小数'));

export const launchFlow = defineCall({
  call: P.launchFlow,
  auth: true,
  summary:
    "Launch a signing flow on the caller's uploaded documents (quick launch: one document). Steps run in order, the " +
    'parties of a step in parallel. Before any signature each page gets a footer with the verification code and a QR ' +
    'to /#/verify/<code>. Reserves one signing of the account quota (1321 when none is left) and sends each party of ' +
    'the first step its link. Refusals: unknown documents, positions off the page, a keyword not in the text, an ' +
    'unknown company, a deadline in the past. `remindEveryDays` (1-30) reminds the unsigned parties every N days ' +
    'until the flow ends.',
  request: zBase.extend({
    title: z.string().trim().min(1, bi('enter a title', '请输入标题')).max(100),
    documentIds: z.array(zId).min(1, bi('add a document', '请添加文件')).max(FLOW_LIMITS.documents),
    steps: z
      .array(z.object({ parties: z.array(zPartyInput).min(1).max(FLOW_LIMITS.partiesPerStep) }))
      .min(1, bi('add a signer', '请添加签署方'))
      .max(FLOW_LIMITS.steps),
    /** Deadline of the whole flow; default 7 days from now. */
    deadline: zIsoTime.optional(),
    /** Remind the unsigned parties every N days until the flow ends (null or absent: no automatic reminders). */
    remindEveryDays: z
      .number()
      .int(bi('enter whole days', '请输入整数天数'))
      .min(REMIND_EVERY_DAYS.min, bi('remind at most once a day', '最多每天提醒一次'))
      .max(REMIND_EVERY_DAYS.max, bi('remind at least every 30 days', '提醒间隔不能超过 30 天'))
      .nullable()
      .optional(),
    /** Shown to the signers in their message and signing room. */
    message: z.string().trim().max(500).optional(),
    /** Quick launch (home/quicklyFileUpload): exactly one document. */
    isQuick: z.boolean().default(false),
    amount: zContractAmount.optional(),
    /** Copy recipients (抄送, issue 29): never sign; receive the finished contract (contract/calls/cc.ts). */
    cc: zCcList.optional(),
    /** The contract's own term (issue 29, contract/calls/term.ts) and the completed flow this one renews. */
    term: zTermInput.optional(),
    renewsFlowId: zId.optional(),
  }),
  response: z.object({
    flowId: z.string(),
    status: zFlowStatus,
    verificationCodes: z.array(z.string()),
    /**
     * True when the company's launch rule held the flow for approval (issue 27): stored, nobody told yet; it is
     * sent when approved, cancelled when rejected.
     */
    awaitingApproval: z.boolean().optional(),
  }),
});

export const zPartyView = z.object({
  partyId: z.string(),
  stepIndex: z.number().int().describe('0-based step'),
  kind: z.enum(['person', 'company']),
  linkType: z.number().int(),
  /** The person's name, or for a company party the operator's name (may be null). */
  name: z.string().nullable(),
  /** Masked: first 3 and last 4 digits. */
  phoneMasked: z.string(),
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  applies: zApplies,
  /** The intent check the room asks before this party's signature. */
  intent: zIntent,
  positions: z.array(
    z.object({
      documentId: z.string(),
      /** 1-based page. */
      page: z.number().int(),
      /** Resolved box in PDF points, origin bottom-left. */
      rect: z.tuple([z.number(), z.number(), z.number(), z.number()]),
    }),
  ),
  status: zPartyStatus,
  signedAt: z.string().nullable(),
  declinedAt: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** Who actually signed for a company party. */
  signedByName: z.string().nullable(),
  lastRemindedAt: z.string().nullable(),
  /** When the party's first link was sent (null while its step has not started). */
  sentAt: z.string().nullable(),
  /** When the party first opened its signing room. */
  openedAt: z.string().nullable(),
  /** When the party started onboarding in the room (real name, agreement, certificate). */
  onboardingAt: z.string().nullable(),
  /** Why the onboarding stopped (e.g. the confirmed name differs from the one the launcher typed), both languages. */
  onboardingProblem: z.object({ zh: z.string(), en: z.string() }).nullable(),
  /** Where the party stands, for the launcher: waiting, sent, opened, onboarding, signed, refused, closed. */
  progress: z.enum(['waiting', 'sent', 'opened', 'onboarding', 'signed', 'refused', 'closed']),
});
export type PartyView = z.infer<typeof zPartyView>;

export const zFlowSummary = z.object({
  flowId: z.string(),
  title: z.string(),
  status: zFlowStatus,
  isQuick: z.boolean(),
  initiatorName: z.string().nullable(),
  /** The company that launched it, or null for a person's flow. */
  initiatorCompanyName: z.string().nullable(),
  createdAt: z.string(),
  deadline: z.string(),
  completedAt: z.string().nullable(),
  /** 0-based index of the step being signed (steps.length when completed). */
  currentStep: z.number().int(),
  partyCount: z.number().int(),
  signedCount: z.number().int(),
  documentNames: z.array(z.string()),
  /** Held for the company's launch approval (issue 27): not sent to anyone yet (status stays `signing`). */
  awaitingApproval: z.boolean(),
  /** Void by agreement (issue 29): when the rescission agreement voiding this contract completed, and which. */
  voidedAt: z.string().nullable().optional(),
  voidedByFlowId: z.string().nullable().optional(),
  /** A rescission agreement: the contract it rescinds. */
  rescindsFlowId: z.string().nullable().optional(),
});
export type FlowSummary = z.infer<typeof zFlowSummary>;

export const zFlowDetail = zFlowSummary.extend({
  message: z.string().nullable(),
  endReason: z.string().nullable().describe('cancel or decline reason'),
  endedAt: z.string().nullable(),
  /** "Remind every N days" chosen at launch; null: no automatic reminders. */
  remindEveryDays: z.number().int().nullable(),
  /** When the next automatic reminder goes out (null when none is planned or the flow has ended). */
  nextRemindAt: z.string().nullable(),
  documents: z.array(zDocumentInfo),
  steps: z.array(z.object({ index: z.number().int(), parties: z.array(zPartyView) })),
  /** Fields the parties fill (issue 28), with their values (empty until filled). */
  fields: z.array(zFlowField),
  /** What the caller may do. */
  mine: z.object({
    isInitiator: z.boolean(),
    /** Parties the caller may sign for now (open them with signingRoomLogin). */
    myPendingPartyIds: z.array(z.string()),
    canCancel: z.boolean(),
    canRemind: z.boolean(),
  }),
});
export type FlowDetail = z.infer<typeof zFlowDetail>;

export const getFlowDetail = defineCall({
  call: P.getFlowDetail,
  auth: false,
  summary:
    'A flow with its documents, steps and parties, for the initiating account or a party (session, or the roomToken ' +
    'of its signing room). Another account gets 1101 NotFound.',
  request: zBase.extend({ flowId: zId, roomToken: z.string().max(100).optional() }),
  response: zFlowDetail,
});

const zListFilters = zPageRequest.extend({
  keyword: z.string().trim().max(50).optional().describe('matches the title or a document name'),
  /** Created at or after (ISO time). */
  dateFrom: zIsoTime.optional(),
  /** Created before (ISO time). */
  dateTo: zIsoTime.optional(),
});

/**
 * A launched flow as the launcher's list shows it: with the values its parties filled and signed (issue 28),
 * label by label (a checkbox '✓' or '✗', an attachment its file name), for the list's export.
 */
export const zLaunchedItem = zFlowSummary.extend({
  fieldValues: z.array(z.object({ label: z.string(), value: z.string() })),
});
export type LaunchedItem = z.infer<typeof zLaunchedItem>;

export const listLaunchedFlows = defineCall({
  call: P.listLaunchedFlows,
  auth: true,
  summary:
    'Flows launched by the caller account (person, or the session company: all of its flows), newest first; filters ' +
    'status, keyword, date range; pagination pageNum/pageSize (default 10).',
  request: zBase.extend(zListFilters.shape).extend({ status: zFlowStatus.optional() }),
  response: zPage(zLaunchedItem),
});

export const zPendingItem = zFlowSummary.extend({
  partyId: z.string(),
  partyStatus: zPartyStatus,
  /** The SPA path of the party's signing room without link code: open it with signingRoomLogin. */
  partyKind: z.enum(['person', 'company']),
});

export const listPendingSignatures = defineCall({
  call: P.listPendingSignatures,
  auth: true,
  summary:
    'Flows where the caller is a party: a person session, parties with its phone; a company session, parties of ' +
    'the company (the administrator sees all, an operator those sent to their phone). `status` filters the party ' +
    "status (default 'pending': the caller's turn now); keyword, date range, pagination as listLaunchedFlows.",
  request: zBase.extend(zListFilters.shape).extend({ status: zPartyStatus.optional() }),
  response: zPage(zPendingItem),
});

export const cancelFlow = defineCall({
  call: P.cancelFlow,
  auth: true,
  summary:
    'The initiating account cancels a flow before completion, with a reason; the quota unit is released and the ' +
    'parties are told. Refused (1311) once completed, declined, expired or cancelled.',
  request: zBase.extend({
    flowId: zId,
    reason: z.string().trim().min(1, bi('give a reason', '请填写原因')).max(200),
  }),
  response: z.null(),
});

export const remindSigners = defineCall({
  call: P.remindSigners,
  auth: true,
  summary:
    'The initiating account sends the pending parties (or the ones named) their link again. A party is reminded at ' +
    'most once per 10 minutes; answers how many were reminded.',
  request: zBase.extend({ flowId: zId, partyIds: z.array(zId).max(FLOW_LIMITS.parties).optional() }),
  response: z.object({ reminded: z.number().int() }),
});

export const zRoomLogin = z.object({
  /** Capability for the signing-room calls of this one party; send it in their body (GET: `?roomToken=`). */
  roomToken: z.string(),
  expiresAt: z.string(),
  flowId: z.string(),
  partyId: z.string(),
  linkType: z.number().int(),
});
export type RoomLogin = z.infer<typeof zRoomLogin>;

export const signingRoomLogin = defineCall({
  call: P.signingRoomLogin,
  auth: true,
  summary:
    "A logged-in user opens a party's signing room: a person session for a person party with its phone; a company " +
    'session (administrator, or the operator the link was sent to) for a party of its company. Gives a roomToken.',
  request: zBase.extend({ flowId: zId, partyId: zId }),
  response: zRoomLogin,
});

export const sendLinkSmsCode = defineCall({
  call: P.sendLinkSmsCode,
  auth: false,
  summary:
    "Step 1 of a link login: sends an SMS code (purpose 'sign') to the phone when it is the party's phone of that " +
    'link; refused with 1312 otherwise (wrong link or phone).',
  request: zBase.extend({
    linkType: z.number().int().min(1).max(2),
    linkCode: z.string().min(16).max(100),
    phone: zPhone,
  }),
  response: z.object({ expiresInSeconds: z.number().int(), resendAfterSeconds: z.number().int() }),
});

export const signingRoomLoginByLinkCode = defineCall({
  call: P.signingRoomLoginByLinkCode,
  auth: false,
  summary:
    "Step 2 of a link login: link + the party's phone + its SMS code give a roomToken scoped to that party only " +
    '(valid 2 hours). Wrong link or phone: 1312; wrong, expired or replayed code: 1200.',
  request: zBase.extend({
    linkType: z.number().int().min(1).max(2),
    linkCode: z.string().min(16).max(100),
    phone: zPhone,
    smsCode: zSmsCode,
  }),
  response: zRoomLogin,
});

export const signingRoomLoginByEmbed = defineCall({
  call: P.signingRoomLoginByEmbed,
  auth: false,
  summary:
    "Opens the signing room of an embedded-signing URL (the integrator API's signing-url of a party): the URL's " +
    'one-time code gives a roomToken for that party, bound to its phone (valid 2 hours). The code works once, ' +
    'within 10 minutes of its making; otherwise 1312.',
  request: zBase.extend({ embedCode: z.string().min(16).max(100) }),
  response: zRoomLogin,
});

export const zRoomSeal = z.object({
  sealId: z.string(),
  name: z.string(),
  /** Company seal type, null for a person seal. */
  sealType: z.number().int().nullable(),
  /** GET URL of the PNG (the seal module's image route). */
  pngUrl: z.string(),
  widthMm: z.number(),
  heightMm: z.number(),
  /** A seal of the party's company used under a cross-company grant to the signer's company (issue 27). */
  grant: z.object({ companyName: z.string(), letterNumber: z.string() }).optional(),
});

/**
 * What a room's signer still needs before signing (person parties): an account (made in the room from the
 * phone the room login proved), a real name, the certificate usage agreement, a certificate. `step` is the next
 * screen: provePhone (an embedded room whose phone is not proven yet: an SMS code first, roomProvePhone),
 * nameAuthentication, userAgreement, openCompany, or none (ready to sign).
 */
export const zRoomOnboarding = z.object({
  step: z.enum(['provePhone', 'nameAuthentication', 'userAgreement', 'openCompany', 'none']),
  /**
   * The room's phone is proven in this browser (a link login's or the room's SMS code, the party's own session,
   * or an integrator key trusted to assert identities). Until then the room may sign as the phone's account
   * with its intent check, but makes no account, records no identity, issues no certificate and shows no
   * real name.
   */
  isPhoneProven: z.boolean(),
  hasAccount: z.boolean(),
  isRealNameDone: z.boolean(),
  isAgreementAccepted: z.boolean(),
  hasCertificate: z.boolean(),
  /** The verified name, once known (and the phone proven in this room). */
  realName: z.string().nullable(),
  /** The name the launcher typed (to be confirmed; a different name is refused). */
  expectedName: z.string().nullable(),
  /** The room's phone, masked: prefilled and fixed on the name-authentication step. */
  phoneMasked: z.string(),
  agreementVersion: z.string(),
  identityProvider: z.object({ name: z.string(), isDevelopment: z.boolean() }),
  /** Company parties: the company and, while it is being opened from the room, where its opening stands. */
  company: z
    .object({
      name: z.string(),
      isOpen: z.boolean(),
      /** The micro-payment to the company's account was sent; confirm its amount. */
      isPaymentSent: z.boolean(),
      attemptsLeft: z.number().int().nullable(),
      creditCode: z.string().nullable(),
      provider: z.string().nullable(),
    })
    .nullable(),
});
export type RoomOnboarding = z.infer<typeof zRoomOnboarding>;

export const zSigningRoom = z.object({
  flow: zFlowSummary.extend({ message: z.string().nullable() }),
  party: zPartyView,
  documents: z.array(zDocumentInfo),
  /** True when it is this party's turn and the flow is open. */
  canSign: z.boolean(),
  /** Why not, in the caller's language, when canSign is false. */
  cannotSignReason: z.string().nullable(),
  /** The signer the room acts as (the logged-in or SMS-verified person). */
  signer: z.object({ name: z.string().nullable(), phoneMasked: z.string(), hasCertificate: z.boolean() }),
  /** Seals the signer may use now: own person seals; for a company party, company seals authorised to them. */
  seals: z.array(zRoomSeal),
  /** Whether the party must choose a company seal / legal-person seal / give a person signature. */
  needs: z.object({ companySeal: z.boolean(), legalPersonSeal: z.boolean(), personSignature: z.boolean() }),
  /** What the signer must do before signing (person parties; company parties answer step 'none'). */
  onboarding: zRoomOnboarding,
  /** The party's own fields to fill before signing (issue 28), with the values saved so far. */
  fields: z.array(zFlowField),
});
export type SigningRoom = z.infer<typeof zSigningRoom>;

const zRoom = zBase.extend({ roomToken: z.string().min(16).max(100) });

export const getSigningRoom = defineCall({
  call: P.getSigningRoom,
  auth: false,
  summary:
    "The signing room of the roomToken's party: flow, documents (render with pdf.js from downloadUrl + roomToken), " +
    "the party's positions, the seals usable by the signer, and whether it may sign now. Records a 'view' event.",
  request: zRoom,
  response: zSigningRoom,
});

export const sendSignSmsCode = defineCall({
  call: P.sendSignSmsCode,
  auth: false,
  summary:
    "Sends the SMS code that confirms the intent to sign (purpose 'sign') to the room's signer phone, with " +
    "purpose 'signingPassword' the code that sets the signer's signing password (setSigningPassword), or with " +
    "purpose 'roomLogin' the code that proves the phone in an embedded room (roomProvePhone). Codes are this " +
    "room's party's alone: counted per party, and accepted only by this party's room.",
  request: zRoom.extend({ purpose: z.enum(['sign', 'signingPassword', 'roomLogin']).default('sign') }),
  response: z.object({
    expiresInSeconds: z.number().int(),
    resendAfterSeconds: z.number().int(),
    phoneMasked: z.string(),
  }),
});

export const signDocument = defineCall({
  call: P.signDocument,
  auth: false,
  summary:
    "Sign every document of the room's party: one incremental PAdES B-T update per document with the party's own " +
    'certificate, the chosen seals (or a drawn signature PNG, base64, at most 512 KB) at its positions. Intent is ' +
    "confirmed by the party's intent check (party.intent): the SMS code, the signer's signing password, or a passed " +
    'face check of this party (startRoomFaceAuth). Refusals: not its turn 1301, already signed 1302, deadline ' +
    'passed 1303, flow closed 1311, no certificate 1305, seal not usable 1306, SMS code 1200, intent check 1202.',
  request: zRoom.extend({
    /** intent 'sms'. */
    smsCode: zSmsCode.optional(),
    /** intent 'password': the signer's signing password. */
    signingPassword: z.string().max(64).optional(),
    /** Company seal of the party's companySealType. */
    companySealId: zId.optional(),
    legalPersonSealId: zId.optional(),
    /** A saved person seal or signature of the signer... */
    personSealId: zId.optional(),
    /** ...or a signature drawn now: PNG bytes in base64 (no data: prefix). */
    signaturePng: z
      .string()
      .max(Math.ceil((512 * 1024 * 4) / 3) + 4)
      .optional(),
    /**
     * Values of the party's fields (issue 28), over those saved with saveRoomFields; every required field must
     * then hold a value (1100 names the first that does not). Written into the PDF with the signature.
     */
    fieldValues: z.record(z.string().uuid(), zRoomFieldValue).optional(),
  }),
  response: z.object({
    flowStatus: zFlowStatus,
    partyStatus: zPartyStatus,
    /** The new SHA-256 of each signed document. */
    documents: z.array(
      z.object({ documentId: z.string(), sha256: z.string(), signatureCount: z.number().int() }),
    ),
  }),
});

/** Where a face check returns to: a route of this app (never another site). */
export const zAppRoute = z
  .string()
  .max(500)
  .regex(/^\/[^/\\]/, bi('signUrl must be a route of this app', 'signUrl 必须是本应用内的路由'));

export const startRoomFaceAuth = defineCall({
  call: P.startRoomFaceAuth,
  auth: false,
  summary:
    "Intent check 'face': starts the identity provider's face check of the room's real-name-verified signer for " +
    "this party; answers the provider's page to open. Only the provider's signed result decides; a passed result " +
    'confirms one signature of this party within 10 minutes.',
  request: zRoom.extend({
    deviceType: z.enum(['h5', 'pc']).default('pc'),
    /** The room's route to return to after a passed check (a route of this app). */
    signUrl: zAppRoute,
  }),
  response: z.object({ url: z.string(), expiresInSeconds: z.number().int() }),
});

export const setSigningPassword = defineCall({
  call: P.setSigningPassword,
  auth: false,
  summary:
    "Sets or changes the signing password (intent check 'password') of the logged-in person, or with a roomToken " +
    "of the room's signer. Proven by an SMS code of purpose 'signingPassword' sent to that person's own phone. " +
    'Stored as an argon2id hash; five wrong passwords at signing lock it for 15 minutes.',
  request: zBase.extend({
    roomToken: z.string().min(16).max(100).optional(),
    smsCode: zSmsCode,
    password: z
      .string()
      .min(6, bi('the signing password has 6 to 32 characters', '签署密码为 6 到 32 位'))
      .max(32, bi('the signing password has 6 to 32 characters', '签署密码为 6 到 32 位')),
  }),
  response: z.object({ updatedAt: z.string() }),
});

export const getSigningPassword = defineCall({
  call: P.getSigningPassword,
  auth: true,
  summary:
    "Whether the logged-in person has a signing password (intent check 'password'), when it was last set, and " +
    'until when it is locked after five wrong attempts (null when it is not). Never the password or its hash.',
  request: zBase,
  response: z.object({
    isSet: z.boolean(),
    updatedAt: z.string().nullable(),
    lockedUntil: z.string().nullable(),
  }),
});

export const declineFlow = defineCall({
  call: P.declineFlow,
  auth: false,
  summary:
    "The room's party declines with a reason: the flow becomes declined, the quota unit is released, the initiator " +
    'and the other parties are told.',
  request: zRoom.extend({ reason: z.string().trim().min(1, bi('give a reason', '请填写原因')).max(200) }),
  response: z.null(),
});

export const roomRealName = defineCall({
  call: P.roomRealName,
  auth: false,
  summary:
    "The room's nameAuthentication step (person parties): name + ID number; the phone is the one the room login " +
    'proved. Makes a normal person account for that phone when it has none, runs the identity check (name, ID ' +
    "number, phone) and records the real name. Where the launcher typed the signer's name, a different name is " +
    'refused (1100, naming both) and the launcher sees the stop in the flow detail. Already verified: 1100.',
  request: zRoom.extend({ name: zPersonName, idNumber: zIdNumber }),
  response: zRoomOnboarding,
});

export const roomProvePhone = defineCall({
  call: P.roomProvePhone,
  auth: false,
  summary:
    "Proves the room's phone in this browser with the SMS code of sendSignSmsCode purpose 'roomLogin' (an " +
    'embedded room, whose URL does not prove it): the room may then onboard. Never logs the browser in. Answers ' +
    'the onboarding state.',
  request: zRoom.extend({ smsCode: zSmsCode }),
  response: zRoomOnboarding,
});

export const roomAcceptAgreement = defineCall({
  call: P.roomAcceptAgreement,
  auth: false,
  summary:
    "The room's userAgreement step: accepts the certificate usage agreement (the current version) and issues the " +
    'person certificate; the room is then ready to sign. An account made in the room is logged in in this browser ' +
    '(a session, as after a login), so /mobileHome and the lists show it at once.',
  request: zRoom.extend({ version: z.string().min(1).max(32) }),
  response: zRoomOnboarding,
});

export const roomOpenCompany = defineCall({
  call: P.roomOpenCompany,
  auth: false,
  summary:
    "The room's company step (a company party whose company has not opened e-signature): the handler, with a " +
    "verified real name, applies for the party's company (name fixed) with its credit code and legal " +
    "representative — the legal-person check: the handler's verified name must be the legal representative's — and " +
    'the verification micro-payment is sent to the company account. Then roomConfirmCompany.',
  request: zRoom.extend({
    creditCode: z
      .string()
      .trim()
      .min(18, bi('the credit code has 18 characters', '统一社会信用代码为 18 位'))
      .max(18, bi('the credit code has 18 characters', '统一社会信用代码为 18 位')),
    legalRepName: zPersonName,
  }),
  response: zRoomOnboarding,
});

export const roomConfirmCompany = defineCall({
  call: P.roomConfirmCompany,
  auth: false,
  summary:
    'The amount received on the company account confirms the opening: the company is verified with its certificate, ' +
    "the handler becomes its administrator, the seals the party applies are issued, and the party is this company's.",
  request: zRoom.extend({ amount: z.string().trim().min(1).max(10) }),
  response: zRoomOnboarding,
});

export const zSignerReadiness = z.object({
  hasAccount: z.boolean(),
  isRealNameDone: z.boolean(),
  hasCertificate: z.boolean(),
  /** Company parties: whether the company has opened e-signature (verified, with its certificate). */
  isCompanyOpen: z.boolean().nullable(),
  /** Company parties of an opened company: the company seal types the signer may use now (none without an account). */
  sealTypes: z.array(z.number().int()).optional(),
  /**
   * Company parties of an opened company, when the request says what the party applies: whether the signer may
   * use now every seal it needs (a company seal of the type, or of any type with anyCompanySeal; the
   * legal-person seal).
   */
  hasNeededSeal: z.boolean().optional(),
});

export const getSignerReadiness = defineCall({
  call: P.getSignerReadiness,
  auth: true,
  summary:
    'At launch: what each signer will meet — whether the phone (or the chosen user) has an account, a real name ' +
    'and a certificate, and for a company party whether the company has opened e-signature, the seal types the ' +
    'signer may use there and whether they include the seals the party applies. At most 20 signers ' +
    'per call; 300 look-ups per account per hour.',
  request: zBase.extend({
    signers: z
      .array(
        z.object({
          phone: zPhone.optional(),
          userId: zId.optional(),
          companyId: zId.optional(),
          companyName: z.string().trim().min(2).max(64).optional(),
          /** What the company party applies (zApplies), for hasNeededSeal. */
          companySealType: zSealType.nullable().optional(),
          anyCompanySeal: z.boolean().optional(),
          legalPersonSeal: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(20),
  }),
  response: z.object({ signers: z.array(zSignerReadiness) }),
});

export const zAuditEntry = z.object({
  seq: z.number().int().describe('1-based position in the chain of this document'),
  documentId: z.string(),
  event: z.enum([
    'launch',
    'view',
    'sms_sent',
    /** damaged cross-reference data rebuilt before the first signature (the hashes name both files) */
    'repair',
    'sign',
    'decline',
    'cancel',
    'remind',
    'expire',
    'complete',
    'download',
    /** seal-use approval (issue 27): a handler asked, an approver decided, an open request became void */
    'approval_requested',
    'approval_decided',
    'approval_void',
    /** comments (issue 29): a comment written, a thread resolved or reopened */
    'comment',
    'comment_resolve',
    /** a copy recipient (抄送, issue 29) added to an open flow by the launcher */
    'cc_added',
    /** issue 29: a party's turn handed to someone else, the deadline changed, a signing link copied by the launcher */
    'reassign',
    'deadline_change',
    'link_copied',
    /** void by agreement (issue 29): a rescission agreement launched, and the contract voided by it */
    'rescission_requested',
    'voided',
    /** a revised document (issue 29): the launcher uploaded a new revision */
    'revise',
    /** contract term (issue 29): set or changed by the launcher; a reminder before its end */
    'term_set',
    'term_remind',
  ]),
  /** Who: a person's name (or masked phone), or 'platform'. */
  actor: z.string(),
  actorPhoneMasked: z.string().nullable(),
  /** For a company party, the company. */
  actorCompany: z.string().nullable(),
  detail: z.string().nullable(),
  at: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  hashBefore: z.string().nullable(),
  hashAfter: z.string().nullable(),
  prevHash: z.string(),
  entryHash: z.string(),
});
export type AuditEntry = z.infer<typeof zAuditEntry>;

export const getAuditTrail = defineCall({
  call: P.getAuditTrail,
  auth: false,
  summary:
    'Every event of a flow per document (who, what, when, IP, user agent, hash before/after), hash-chained per ' +
    'document, and whether each chain verifies. For the initiating account or a party (session or roomToken).',
  request: zBase.extend({ flowId: zId, roomToken: z.string().max(100).optional() }),
  response: z.object({
    entries: z.array(zAuditEntry),
    chains: z.array(
      z.object({ documentId: z.string(), isIntact: z.boolean(), brokenAtSeq: z.number().int().nullable() }),
    ),
  }),
});

export const zMessage = z.object({
  id: z.string(),
  kind: z.enum([
    'sign_request',
    'remind',
    /** the signing deadline is a day away (sent once to the unsigned parties of the current step) */
    'deadline_soon',
    'completed',
    'declined',
    'cancelled',
    'expired',
    'signed',
    /** a company invites the person to become its operator (link: the invitation's screen) */
    'company_invitation',
    /** a handler asks the person (an approver) to approve a seal's use (link: the request) */
    'approval_requested',
    /** an approver decided the person's request (link: the request) */
    'approval_decided',
    /** someone in the flow commented (issue 29; link: the flow's detail or signing list) */
    'comment',
    /** a copy recipient's notice (抄送, issue 29; link: their read-only view) */
    'cc',
    /** a party's turn was handed to someone else (issue 29): to the old signer and the launcher */
    'reassigned',
    /** the launcher changed the signing deadline (issue 29) */
    'deadline_changed',
    /** the launcher uploaded a revised document (issue 29; after signatures, everyone signs again) */
    'revised',
    /** a completed contract's term ends soon (issue 29: 30, 7 or 1 days before) */
    'term_ending',
  ]),
  title: z.string(),
  text: z.string(),
  flowId: z.string().nullable(),
  /** SPA path to open (a signing-room link or a flow detail); null when none. */
  link: z.string().nullable(),
  isRead: z.boolean(),
  createdAt: z.string(),
});

export const listMessages = defineCall({
  call: P.listMessages,
  auth: true,
  summary: "The caller's notifications (/message), newest first, with pagination; `unreadOnly` filters.",
  request: zBase.extend(zPageRequest.shape).extend({ unreadOnly: z.boolean().optional() }),
  response: zPage(zMessage).extend({ unread: z.number().int() }),
});

export const markMessagesRead = defineCall({
  call: P.markMessagesRead,
  auth: true,
  summary: "Marks the caller's messages read: the ids given, or all when none.",
  request: zBase.extend({ ids: z.array(zId).max(100).optional() }),
  response: z.object({ unread: z.number().int() }),
});

export const getQuota = defineCall({
  call: P.getQuota,
  auth: true,
  summary:
    'Signing quota of the caller account (free allowance FREE_SIGNING_ALLOWANCE until packages exist): total, ' +
    'reserved by running flows, used by completed ones, remaining.',
  request: zBase,
  response: z.object({
    total: z.number().int(),
    reserved: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
  }),
});

export const flowCalls = [
  launchFlow,
  getFlowDetail,
  listLaunchedFlows,
  listPendingSignatures,
  cancelFlow,
  remindSigners,
  signingRoomLogin,
  sendLinkSmsCode,
  signingRoomLoginByLinkCode,
  signingRoomLoginByEmbed,
  getSigningRoom,
  sendSignSmsCode,
  startRoomFaceAuth,
  setSigningPassword,
  getSigningPassword,
  signDocument,
  declineFlow,
  getAuditTrail,
  listMessages,
  markMessagesRead,
  getQuota,
  roomRealName,
  roomProvePhone,
  roomAcceptAgreement,
  roomOpenCompany,
  roomConfirmCompany,
  getSignerReadiness,
] as const;
