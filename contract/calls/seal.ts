import { z } from 'zod';
import { SEAL_TYPES, SealKind, SealStatus } from '../enums.ts';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/seal.ts';
import { bi } from '../bilingual.ts';

/** Where seal images are served: GET `${SEAL_IMAGE_PATH}/<sealId>.svg|png` (owner or company members only). */
export const SEAL_IMAGE_PATH = '/v1/seal/image';

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
const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));
/** Anti-counterfeit number as the renderer accepts it: 4 to 16 digits or capital letters. */
const zAntiCounterfeitNo = z
  .string()
  .trim()
  .regex(
    /^[0-9A-Za-z]{4,16}$/,
    bi('the anti-counterfeit number has 4 to 16 digits or letters', '防伪码为 4–16 位数字或字母'),
  );

/** One authorisation of a company seal to an operator, valid for validFrom <= now < validTo. */
export const zSealAuthorisation = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string().nullable(),
  phone: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  /** Whether it applies now (not revoked, within its period). */
  isCurrent: z.boolean(),
});
export type SealAuthorisation = z.infer<typeof zSealAuthorisation>;

/** A seal as a list shows it. */
export const zSeal = z.object({
  id: z.string(),
  /** Company seal type (SPEC §3); null for person seals. */
  sealType: z.number().int().nullable(),
  name: z.string(),
  kind: z.enum([SealKind.Generated, SealKind.Uploaded, SealKind.Drawn]),
  status: z.enum([SealStatus.Enabled, SealStatus.Disabled]),
  /** GET URL of the image: SVG for generated seals, PNG for uploaded and drawn ones. */
  imageUrl: z.string(),
  /** GET URL of the PNG (every seal has one). */
  pngUrl: z.string(),
  widthMm: z.number(),
  heightMm: z.number(),
  antiCounterfeitNo: z.string().nullable(),
  createdAt: z.string(),
  /** Whether the caller may sign with it now: enabled, and for an operator authorised at this moment. */
  isUsable: z.boolean(),
  /** Company seals: the administrator and its keepers see every live authorisation, a handler only their own. */
  authorisations: z.array(zSealAuthorisation),
  /** Whether the caller manages it (the owner person; the company's administrator or a keeper of the seal). */
  canManage: z.boolean().optional(),
  /** Company seals, for the administrator: the user ids of the seal's keepers (issue 27). */
  keeperUserIds: z.array(z.string()).optional(),
});
export type Seal = z.infer<typeof zSeal>;

export const zCertSummary = z.object({
  serial: z.string(),
  subject: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  status: z.string(),
});

export const getUserCertSealList = defineCall({
  call: P.getUserCertSealList,
  auth: true,
  summary:
    "The caller's seals and certificate: person seals for a person session; for a company session the company's " +
    'seals (the administrator sees all, an operator only those authorised to them now and enabled).',
  request: zBase,
  response: z.object({
    cert: zCertSummary.nullable(),
    seals: z.array(zSeal),
    /** The caller's role when acting for a company; null for a person. */
    role: z.enum(['admin', 'operator']).nullable(),
  }),
});

export const savePersonSeal = defineCall({
  call: P.savePersonSeal,
  auth: true,
  summary: "Generate a square name seal (name + 印) from the person's verified real name.",
  request: zBase.extend({
    sealDTO: z.object({ userType: z.literal(0), sealName: z.string().max(20).optional() }).optional(),
  }),
  response: zSeal,
});

/** Company seal definition as the add-seal screen sends it (also for previewSeal). */
export const zCompanySealDTO = z.object({
  userType: z.literal(1),
  sealType: zSealType,
  /** Purpose across an "other" seal (99), e.g. 投标专用章; `purpose` is accepted as a synonym. */
  sealName: z.string().max(20).optional(),
  purpose: z.string().max(20).optional(),
  taxpayerNumber: z.string().max(30).optional(),
  legalPersonName: z.string().max(20).optional(),
  antiCounterfeitNo: zAntiCounterfeitNo.optional(),
  /** Let the server make a unique anti-counterfeit number instead of giving one. */
  generateAntiCounterfeitNo: z.boolean().optional(),
  hasStar: z.boolean().optional(),
});
export type CompanySealDTO = z.infer<typeof zCompanySealDTO>;

export const saveCompanySeal = defineCall({
  call: P.saveCompanySeal,
  auth: true,
  summary: "Generate a company seal of a type of SPEC §3 with the company's name (administrator only).",
  request: zBase.extend({ sealDTO: zCompanySealDTO }),
  response: zSeal,
});

/**
 * Multipart calls: the form fields `userType` and `kind` (uploaded | drawn, person only) plus one file
 * part `file` (PNG or JPEG, at most 5 MB and 4000 px a side). The request schema documents the fields.
 */
export const savePersonImageSeal = defineCall({
  call: P.savePersonImageSeal,
  auth: true,
  summary:
    'multipart/form-data: save an uploaded image (kind=uploaded) or a signature drawn on a pad (kind=drawn) as a ' +
    'person seal; fields userType, kind, file (PNG/JPEG, at most 5 MB and 4000 px a side; SVG refused).',
  request: zBase.extend({ kind: z.enum([SealKind.Uploaded, SealKind.Drawn]).optional() }),
  response: zSeal,
});

export const saveCompanyCustomizeSeal = defineCall({
  call: P.saveCompanyCustomizeSeal,
  auth: true,
  summary:
    'multipart/form-data: upload an image of a company seal (administrator only); fields userType=1, sealType, ' +
    'sealName (optional), file (PNG/JPEG, at most 5 MB and 4000 px a side; SVG refused).',
  request: zBase.extend({ sealType: z.string(), sealName: z.string().optional() }),
  response: zSeal,
});

export const previewSeal = defineCall({
  call: P.previewSeal,
  auth: true,
  summary:
    'Render a seal definition as SVG without saving it (the add-seal screen). A company definition takes the ' +
    "session company's name; a person definition the caller's verified name.",
  request: zBase.extend({
    sealDTO: z.union([zCompanySealDTO, z.object({ userType: z.literal(0) })]),
  }),
  response: z.object({ svg: z.string(), widthMm: z.number(), heightMm: z.number() }),
});

export const setSealStatus = defineCall({
  call: P.setSealStatus,
  auth: true,
  summary: 'Enable or disable a seal (its owner person; the company administrator or a keeper of the seal).',
  request: zBase.extend({ sealId: zId, status: z.enum([SealStatus.Enabled, SealStatus.Disabled]) }),
  response: zSeal,
});

export const deleteSeal = defineCall({
  call: P.deleteSeal,
  auth: true,
  summary:
    'Delete a seal (its owner person, or the company administrator); refused while an unfinished signing uses it.',
  request: zBase.extend({ sealId: zId }),
  response: z.null(),
});

export const authoriseSeal = defineCall({
  call: P.authoriseSeal,
  auth: true,
  summary:
    'Authorise a company seal to handlers of the company for validFrom <= t < validTo (the administrator, or a ' +
    'keeper of the seal); ' +
    "replaces an operator's earlier live authorisation of the same seal.",
  request: zBase.extend({
    sealId: zId,
    userIds: z.array(zId).min(1, bi('choose at least one operator', '请至少选择一名经办人')).max(200),
    validFrom: z.iso.datetime({ offset: true }),
    validTo: z.iso.datetime({ offset: true }),
  }),
  response: zSeal,
});

export const revokeSealAuthorisation = defineCall({
  call: P.revokeSealAuthorisation,
  auth: true,
  summary: 'Revoke one authorisation of a company seal (the administrator, or a keeper of the seal).',
  request: zBase.extend({ authorisationId: zId }),
  response: zSeal,
});

export const listSealOperators = defineCall({
  call: P.listSealOperators,
  auth: true,
  summary:
    'Active handlers of the session company, to authorise seals to (the administrator or a seal keeper).',
  request: zBase,
  response: z.array(z.object({ userId: z.string(), name: z.string().nullable(), phone: z.string() })),
});

export const setSealKeepers = defineCall({
  call: P.setSealKeepers,
  auth: true,
  summary:
    "Administrator: sets a company seal's keepers to exactly these members (each holding the seal keeper role). " +
    'A keeper enables, disables and authorises the seals they keep; each change goes into the company audit trail.',
  request: zBase.extend({ sealId: zId, userIds: z.array(zId).max(200) }),
  response: zSeal,
});

export const checkAntiCounterfeitNo = defineCall({
  call: P.checkAntiCounterfeitNo,
  auth: false,
  summary:
    'Public check of a printed seal: the anti-counterfeit number gives the company (name partly masked), the seal ' +
    'type, when it was made and whether it is enabled; null when no seal has that number.',
  request: zBase.extend({ no: z.string().trim().min(1).max(32) }),
  response: z
    .object({
      companyName: z.string(),
      sealType: z.number().int(),
      createdAt: z.string(),
      status: z.enum([SealStatus.Enabled, SealStatus.Disabled]),
    })
    .nullable(),
});

export const sealCalls = [
  getUserCertSealList,
  savePersonSeal,
  savePersonImageSeal,
  saveCompanySeal,
  saveCompanyCustomizeSeal,
  previewSeal,
  setSealStatus,
  deleteSeal,
  authoriseSeal,
  revokeSealAuthorisation,
  listSealOperators,
  setSealKeepers,
  checkAntiCounterfeitNo,
] as const;
