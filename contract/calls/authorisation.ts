// Authorisation letters (授权书, issue 27): a company authorises an operator (`member`), the platform's automatic
// signing (`auto_sign`, 静默签) or another company (`company`) to use its seals, by a PDF the company signs with its
// own certificate and official seal after the issuer (administrator) confirms with an SMS code. Letters are listed,
// downloaded and revoked; a revoked letter's PDF stays as evidence.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/authorisation.ts';
import { zSmsCode } from './session.ts';

/** GET URL of a letter's PDF. */
export const authorisationLetterPdfPath = (letterId: string) =>
  `${P.authorisationLetterPdf.path}/${letterId}`;

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

export const LETTER_KINDS = ['member', 'auto_sign', 'company'] as const;
export const zLetterKind = z.enum(LETTER_KINDS);
export type LetterKind = z.infer<typeof zLetterKind>;

/**
 * `pending` a company letter the other company has not accepted yet; `active` in force (within its period and
 * count); `expired` past its period; `used_up` its count reached; `revoked`.
 */
export const LETTER_STATES = ['pending', 'active', 'not_yet', 'expired', 'used_up', 'revoked'] as const;
export const zLetterState = z.enum(LETTER_STATES);
export type LetterState = z.infer<typeof zLetterState>;

/** Most uses an automatic-signing letter may allow. */
export const MAX_LETTER_USES = 1_000_000;
/** Longest period of a letter: three years, as the market's cross-company grants. */
export const MAX_LETTER_DAYS = 3 * 366;

export const zLetter = z.object({
  letterId: z.string(),
  /** Shown to people: SQ-<year>-<6 digits>. */
  number: z.string(),
  kind: zLetterKind,
  companyId: z.string(),
  companyName: z.string(),
  /** A member letter's operator, a company letter's company; null for automatic signing (the platform). */
  granteeUserId: z.string().nullable(),
  granteeCompanyId: z.string().nullable(),
  granteeName: z.string().nullable(),
  seals: z.array(z.object({ sealId: z.string(), name: z.string(), imageUrl: z.string() })),
  purpose: z.string(),
  templates: z.array(z.object({ templateId: z.string(), name: z.string() })),
  apiKeys: z.array(z.object({ keyId: z.string(), name: z.string() })),
  validFrom: z.string(),
  validTo: z.string(),
  maxUses: z.number().int().nullable(),
  usedCount: z.number().int(),
  state: zLetterState,
  issuedByName: z.string().nullable(),
  createdAt: z.string(),
  acceptedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string().nullable(),
  revokeReason: z.string().nullable(),
  pdfSha256: z.string(),
  /** GET URL of the signed letter PDF. */
  pdfUrl: z.string(),
  /** Whether the caller's company issued it (may revoke) or received it (may accept a pending one). */
  isMine: z.boolean(),
});
export type Letter = z.infer<typeof zLetter>;

export const sendLetterSmsCode = defineCall({
  call: P.sendLetterSmsCode,
  auth: true,
  summary:
    "Send the issuer's intent code (purpose 'authorisation:issue') to the administrator's own phone, for the " +
    'company the session acts for. Administrators only (602).',
  request: zBase,
  response: z.object({
    expiresInSeconds: z.number().int(),
    resendAfterSeconds: z.number().int(),
    /** Where the code went (masked: first 3 and last 4 digits). */
    phoneMasked: z.string(),
  }),
});

const zPeriod = {
  validFrom: z.iso.datetime({ offset: true }),
  validTo: z.iso.datetime({ offset: true }),
};

export const issueAuthorisationLetter = defineCall({
  call: P.issueAuthorisationLetter,
  auth: true,
  summary:
    'Issue an authorisation letter (administrator; the SMS code of sendLetterSmsCode confirms). The company signs ' +
    'the letter PDF with its certificate and official seal. `member`: one operator (granteeUserId) may use the ' +
    'seals for the period (the seal authorisation is made with it); `auto_sign`: one company seal, for flows from ' +
    'templateIds and/or apiKeyIds, up to maxUses; `company`: another company (granteeCompanyName) may use the ' +
    'seals once it accepts. 1100 names what is wrong; 1200 a wrong code.',
  request: zBase.extend({
    kind: zLetterKind,
    sealIds: z.array(zId).min(1, bi('choose a seal', '请选择印章')).max(20),
    purpose: z.string().trim().max(200).default(''),
    granteeUserId: zId.optional(),
    granteeCompanyName: z.string().trim().min(1).max(100).optional(),
    templateIds: z.array(zId).max(50).default([]),
    apiKeyIds: z.array(zId).max(50).default([]),
    ...zPeriod,
    maxUses: z.number().int().min(1).max(MAX_LETTER_USES).nullable().default(null),
    smsCode: zSmsCode,
  }),
  response: zLetter,
});

export const listAuthorisationLetters = defineCall({
  call: P.listAuthorisationLetters,
  auth: true,
  summary:
    "The company's letters, newest first (administrators see all; an operator sees those granted to them), and " +
    'the company letters other companies granted it.',
  request: zBase.extend(zPageRequest.shape).extend({ kind: zLetterKind.optional() }),
  response: zPage(zLetter),
});

export const getAuthorisationLetter = defineCall({
  call: P.getAuthorisationLetter,
  auth: true,
  summary: "One letter of the caller's company (issued or received); another company's is 1101.",
  request: zBase.extend({ letterId: zId }),
  response: zLetter,
});

export const revokeAuthorisationLetter = defineCall({
  call: P.revokeAuthorisationLetter,
  auth: true,
  summary:
    'Revoke a letter (administrator of the issuing company): it stops at once (the next automatic signing, the ' +
    "next seal use); a member letter's seal authorisation is revoked with it. The PDF stays as evidence.",
  request: zBase.extend({ letterId: zId, reason: z.string().trim().max(200).default('') }),
  response: zLetter,
});

export const acceptAuthorisationLetter = defineCall({
  call: P.acceptAuthorisationLetter,
  auth: true,
  summary: "Accept a company letter granted to the caller's company (its administrator).",
  request: zBase.extend({ letterId: zId }),
  response: zLetter,
});

export const authoriseSealWithLetters = defineCall({
  call: P.authoriseSealWithLetters,
  auth: true,
  summary:
    'The authorize page: authorise a company seal to operators for validFrom <= t < validTo, each with a member ' +
    "letter of their own signed by the company (one SMS code of sendLetterSmsCode confirms them all; an operator's " +
    'earlier letter of the seal is superseded). Administrator only.',
  request: zBase.extend({
    sealId: zId,
    userIds: z.array(zId).min(1, bi('choose at least one operator', '请至少选择一名经办人')).max(50),
    ...zPeriod,
    smsCode: zSmsCode,
  }),
  response: z.object({ letters: z.array(zLetter) }),
});

export const authorisationCalls = [
  authoriseSealWithLetters,
  sendLetterSmsCode,
  issueAuthorisationLetter,
  listAuthorisationLetters,
  getAuthorisationLetter,
  revokeAuthorisationLetter,
  acceptAuthorisationLetter,
];
